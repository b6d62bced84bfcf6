package io.sprout.engine.transport;

import static io.sprout.engine.transport.ConnectionState.CLOSED;
import static io.sprout.engine.transport.ConnectionState.QUIET;
import static io.sprout.engine.transport.ConnectionState.READING;
import static io.sprout.engine.transport.ConnectionState.WORKING;

import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * A connection's registration with its loop's selector, loop thread only. In nio mode the key lives as long as the
 * connection and only its interest changes. In hybrid mode a worker about to wait in blocking mode has the key
 * cancelled ({@link #releaseToBlockingWorker}), and once the socket is non-blocking again it is registered anew
 * ({@link #rewatch}); a selector keeps a cancelled key until its next selection, so both wait for one when they
 * must.
 */
final class LoopRegistration {

    private final SocketChannel channel;
    private final SelectorLoop loop;
    private final LoopConnection connection;
    private final ConnectionState state;
    private final WorkerChannel worker;
    private SelectionKey key;

    LoopRegistration(SocketChannel channel, SelectorLoop loop, LoopConnection connection, ConnectionState state,
            WorkerChannel worker) {
        this.channel = channel;
        this.loop = loop;
        this.connection = connection;
        this.state = state;
        this.worker = worker;
    }

    /** Registers the admitted socket for reads. */
    void first() throws IOException {
        key = channel.register(loop.selector(), SelectionKey.OP_READ, connection);
    }

    /** The current key; {@code null} before {@link #first}, cancelled while a hybrid worker blocks. */
    SelectionKey key() {
        return key;
    }

    boolean isValid() {
        return key.isValid();
    }

    /** The connection closes: the selector drops it. */
    void cancel() {
        if (key != null) {
            key.cancel();
        }
    }

    /** Watches for reads, registering anew if hybrid's worker had the key cancelled. */
    void watchReads() {
        if (key.isValid()) {
            key.interestOps(SelectionKey.OP_READ);
        } else {
            rewatch();
        }
    }

    /**
     * Watches for what the worker or the exchange that owns the connection waits on. Interest then differs from
     * plain OP_READ, so the state becomes QUIET and the hand-back restores it. A cancelled key (hybrid, blocking
     * mode) is watched again by {@link #rewatch}, with what is wanted then.
     */
    void watchForWorker() {
        if (state.quietIfOwned() && key.isValid()) {
            key.interestOps(worker.wantedOps());
        }
    }

    /**
     * Hybrid mode: the worker is about to wait in blocking mode, so the key goes; the worker hears once the selector
     * has dropped it. A registration made anew meanwhile (a late {@link #rewatch}) goes too.
     */
    void releaseToBlockingWorker() {
        if (state.is(CLOSED)) {
            return;
        }
        if (key.isValid()) {
            key.cancel();
        }
        loop.afterNextSelection(() -> {
            if (key.isValid()) {
                releaseToBlockingWorker();
            } else {
                worker.keyReleased();
            }
        });
    }

    /**
     * Hybrid mode: the socket is back in non-blocking mode after a worker had it; watch it again, for the next head
     * (READING), the linger (LINGERING), or what a suspended exchange waits on (WORKING, QUIET). The cancelled key
     * may still be registered until the next selection; then this runs again after it.
     */
    void rewatch() {
        int current = state.get();
        if (current == CLOSED || key.isValid()) {
            return;
        }
        int ops = current == WORKING || current == QUIET ? worker.wantedOps() : SelectionKey.OP_READ;
        if (!register(ops, this::rewatch)) {
            return;
        }
        // A worker that handed back meanwhile saw no QUIET and asked nothing of the loop: READING wants reads.
        if (!state.compareAndSet(WORKING, QUIET) && state.get() == READING) {
            key.interestOps(SelectionKey.OP_READ);
        }
    }

    /**
     * Registers the socket anew for {@code ops}; {@code false} when it cannot yet (its cancelled key is still
     * registered until the next selection, when {@code retry} runs) or it closed (then so does the connection).
     */
    boolean register(int ops, Runnable retry) {
        try {
            key = channel.register(loop.selector(), ops, connection);
            return true;
        } catch (CancelledKeyException stillDeregistering) {
            loop.afterNextSelection(retry);
        } catch (ClosedChannelException closed) {
            connection.close();
        }
        return false;
    }
}
