package io.sprout.engine.transport;

import io.sprout.engine.exec.Workers;
import io.sprout.engine.tls.HandshakeStep;
import io.sprout.engine.tls.TlsChannel;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.SelectionKey;
import java.util.concurrent.RejectedExecutionException;

/**
 * The TLS handshake of one connection, driven by its event loop in either execution mode: each readiness advances
 * it as far as it goes without waiting and leaves interest on what it waits for next. The engine's delegated tasks
 * (key agreement, certificate checks: milliseconds of CPU) run on a worker with interest off, never on the loop; the
 * loop carries on when they are done. Its deadline, from the accept, is the connection's sweep to enforce.
 */
final class LoopHandshake {

    private static final System.Logger LOG = System.getLogger(LoopHandshake.class.getName());

    private final TlsChannel tls;
    private final Workers workers;
    private final SelectorLoop loop;
    private final long timeoutNanos;
    private long deadline;

    LoopHandshake(TlsChannel tls, Workers workers, SelectorLoop loop, long timeoutNanos) {
        this.tls = tls;
        this.workers = workers;
        this.loop = loop;
        this.timeoutNanos = timeoutNanos;
    }

    /** Loop thread: the connection is registered; the handshake timeout runs from now. */
    void start(long now) {
        deadline = now + timeoutNanos;
    }

    boolean overdue(long now) {
        return now - deadline > 0;
    }

    /**
     * Loop thread: advances the handshake and sets the key's interest to what it waits for.
     *
     * @param resume runs on the loop once delegated tasks have run on a worker
     * @return {@link HandshakeStep#DONE}, {@link HandshakeStep#PLAINTEXT_HTTP} or {@link HandshakeStep#NOT_TLS} once
     *     the handshake has its verdict; {@code null} while it waits
     * @throws IOException when the handshake failed (or no worker could take its tasks): close the connection
     */
    HandshakeStep advance(SelectionKey key, Runnable resume) throws IOException {
        HandshakeStep step = tls.handshake();
        switch (step) {
            case READ -> key.interestOps(SelectionKey.OP_READ);
            case WRITE -> key.interestOps(SelectionKey.OP_WRITE);
            case TASKS -> {
                key.interestOps(0);
                if (!workers.tryExecute(() -> runTasks(resume))) {
                    throw new IOException("No worker to run the handshake's tasks",
                            new RejectedExecutionException("workers saturated"));
                }
            }
            default -> {
                return step;
            }
        }
        return null;
    }

    /** Worker thread. */
    private void runTasks(Runnable resume) {
        try {
            tls.runDelegatedTasks();
        } catch (RuntimeException failed) {
            // The engine keeps the failure: the handshake's next step reports it and the connection closes.
            LOG.log(Level.DEBUG, "A TLS handshake task failed: " + failed);
        } finally {
            loop.execute(resume);
        }
    }
}
