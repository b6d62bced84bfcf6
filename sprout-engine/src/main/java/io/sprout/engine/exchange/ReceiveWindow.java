package io.sprout.engine.exchange;

import io.sprout.engine.http2.ErrorCode;
import io.sprout.engine.http2.Http2Exception;

/**
 * An HTTP/2 connection's receive window (RFC 9113 §6.9): DATA counts against it as it arrives (the loop), and bytes
 * the streams have read, padding and bytes dropped with reset streams are given back in steps of half the window,
 * each step one WINDOW_UPDATE (workers and the loop). Thread-safe.
 */
final class ReceiveWindow {

    private final int size;
    private long window;
    private long unacknowledged;

    ReceiveWindow(int size) {
        this.size = size;
        this.window = size;
    }

    /** A DATA frame of {@code flowControlled} bytes arrived; beyond the window it is a connection error. */
    synchronized void arrived(int flowControlled) {
        window -= flowControlled;
        if (window < 0) {
            throw Http2Exception.connection(ErrorCode.FLOW_CONTROL_ERROR, "Connection window exceeded");
        }
    }

    /** Bytes that may count again; the increment to send now, or 0 until half the window is due. */
    synchronized int released(int count) {
        unacknowledged += count;
        if (unacknowledged < size / 2) {
            return 0;
        }
        int increment = (int) unacknowledged;
        window += unacknowledged;
        unacknowledged = 0;
        return increment;
    }
}
