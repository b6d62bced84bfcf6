package io.sprout.engine.contract;

import io.sprout.engine.ExecutionMode;
import io.sprout.engine.ThreadType;

/** The four ways to run the engine; every contract test runs in each. */
enum Combination {
    NIO_PLATFORM(ExecutionMode.NIO, ThreadType.PLATFORM),
    NIO_VIRTUAL(ExecutionMode.NIO, ThreadType.VIRTUAL),
    HYBRID_PLATFORM(ExecutionMode.HYBRID, ThreadType.PLATFORM),
    HYBRID_VIRTUAL(ExecutionMode.HYBRID, ThreadType.VIRTUAL);

    final ExecutionMode mode;
    final ThreadType threadType;

    Combination(ExecutionMode mode, ThreadType threadType) {
        this.mode = mode;
        this.threadType = threadType;
    }
}
