package io.sprout.engine.transport;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one state field of a {@link LoopConnection}, which its event loop and the worker serving it race on; the
 * transitions both sides make are here, each one atomic.
 *
 * <pre>
 *   accepted ─(TLS)─▶ HANDSHAKING ──done──▶ READING; plaintext HTTP: 400 ▶ LINGERING; timeout, failure: CLOSED
 *   accepted ──▶ READING ──head complete──▶ WORKING ──keep-alive (one CAS, no loop task)──▶ READING
 *                  │                         │   ▲
 *                  │                         ▼   │ worker hands back: QUIET means the loop switched
 *                  │                        QUIET│ interest off, so the worker asks it to switch it on again
 *                  │                         (socket ready while the worker owns it: interest off, worker signalled)
 *                  │ bad head, 408, shed: 503  │
 *                  ├──────────────────────────┴──response said close──▶ LINGERING ──EOF / 2 s──▶ CLOSED
 *                  └── client EOF, idle timeout, silent past the head deadline, shed when idle, shutdown,
 *                      abort ─────────────────────────────────────────────────────────────────▶ CLOSED
 * </pre>
 *
 * HTTP/2: READING (a plaintext client's preface), HANDSHAKING (ALPN agreed on {@code h2}) or WORKING (an h2c
 * upgrade, once its 101 is queued) become MULTIPLEXED for the rest of the connection's life: the loop owns it,
 * reads frames and hands streams to workers, which never own the connection ({@code Http2Reader}).
 *
 * In hybrid mode the loop cancels the key when the worker would first wait (WORKING), so the worker can put the
 * socket in blocking mode; the worker takes it out again when it hands back, or when the exchange suspends, and the
 * loop then registers the socket anew ({@code LoopRegistration.rewatch}) for what is wanted in the state it finds.
 */
final class ConnectionState {

    static final int HANDSHAKING = 0;
    static final int READING = 1;
    static final int WORKING = 2;
    static final int QUIET = 3;
    static final int LINGERING = 4;
    static final int CLOSED = 5;
    static final int MULTIPLEXED = 6;

    private final AtomicInteger value;

    ConnectionState(int initial) {
        this.value = new AtomicInteger(initial);
    }

    int get() {
        return value.get();
    }

    void set(int state) {
        value.set(state);
    }

    boolean is(int state) {
        return value.get() == state;
    }

    boolean compareAndSet(int expected, int state) {
        return value.compareAndSet(expected, state);
    }

    /** Loop: a worker or a suspended exchange owns the connection, and interest may now differ from OP_READ. */
    boolean quietIfOwned() {
        return value.compareAndSet(WORKING, QUIET) || value.get() == QUIET;
    }

    /** Worker: hands the connection back to its loop, reading; returns the state it left ({@code CLOSED}: closed). */
    int handBack() {
        int previous = value.get();
        while (previous != CLOSED && !value.compareAndSet(previous, READING)) {
            previous = value.get();
        }
        return previous;
    }

    /** Worker: hands an upgraded connection back to its loop, multiplexed; returns the state it left. */
    int handBackMultiplexed() {
        int previous = value.get();
        while (previous != CLOSED && !value.compareAndSet(previous, MULTIPLEXED)) {
            previous = value.get();
        }
        return previous;
    }

    /** Closes; returns the state it left, {@code CLOSED} when it was closed already. */
    int close() {
        return value.getAndSet(CLOSED);
    }

    /** Whether a worker (or a suspended exchange) owned the connection in {@code state}, and so holds its buffers. */
    static boolean ownedByWorker(int state) {
        return state == WORKING || state == QUIET;
    }
}
