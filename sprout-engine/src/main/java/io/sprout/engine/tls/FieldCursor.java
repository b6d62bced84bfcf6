package io.sprout.engine.tls;

import java.nio.ByteBuffer;

/**
 * Reads the big-endian fields of a TLS structure inside {@code [position, end)}; a read or skip past the end marks it
 * failed instead of throwing, and a failed cursor reads zeros, so callers check {@link #failed()} once after a group
 * of fields. This is what keeps {@link ClientHelloParser} fuzz-safe.
 */
final class FieldCursor {

    private final ByteBuffer in;
    private final int end;
    private int position;
    private boolean failed;

    FieldCursor(ByteBuffer in, int position, int end) {
        this.in = in;
        this.position = position;
        this.end = end;
    }

    int uint8() {
        return skip(1) ? in.get(position - 1) & 0xff : 0;
    }

    int uint16() {
        return skip(2) ? (in.get(position - 2) & 0xff) << 8 | in.get(position - 1) & 0xff : 0;
    }

    int position() {
        return position;
    }

    int end() {
        return end;
    }

    boolean atEnd() {
        return failed || position >= end;
    }

    boolean failed() {
        return failed;
    }

    /** Moves past {@code count} bytes; {@code false}, and failed from now on, when fewer are left. */
    boolean skip(int count) {
        if (failed || count > end - position) {
            failed = true;
            return false;
        }
        position += count;
        return true;
    }
}
