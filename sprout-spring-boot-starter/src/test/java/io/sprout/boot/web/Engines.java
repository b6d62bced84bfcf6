package io.sprout.boot.web;

import io.sprout.engine.ExecutionMode;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.ThreadType;

import java.util.stream.Stream;

/** The four engine combinations every server test runs in. */
record Engines(ExecutionMode mode, ThreadType threads) {

    static Stream<Engines> all() {
        return Stream.of(new Engines(ExecutionMode.NIO, ThreadType.PLATFORM),
                new Engines(ExecutionMode.NIO, ThreadType.VIRTUAL),
                new Engines(ExecutionMode.HYBRID, ThreadType.PLATFORM),
                new Engines(ExecutionMode.HYBRID, ThreadType.VIRTUAL));
    }

    /** A small engine: tests never need 200 threads. */
    ServerConfig config() {
        return ServerConfig.builder().executionMode(mode).threadType(threads).threadPoolSize(16)
                .selectorThreads(1).build();
    }

    @Override
    public String toString() {
        return mode + "/" + threads;
    }
}
