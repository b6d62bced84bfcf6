package io.sprout.engine.transport;

import java.io.IOException;
import java.lang.System.Logger.Level;

/**
 * How long the accept loop pauses after a failed accept (EMFILE and the like): 50 ms, doubling up to 1.6 s while
 * the failures go on, back to nothing after one success. Only the first failure of each episode is logged, so a
 * shortage of file descriptors neither spins the loop nor floods the log. Acceptor thread only.
 */
final class AcceptBackoff {

    private static final System.Logger LOG = System.getLogger(Acceptor.class.getName());
    private static final long FIRST_MILLIS = 50;
    private static final long MAX_MILLIS = 1600;

    private long delayMillis;

    /** An accept failed: returns how long to pause before the next, logging the failure that starts an episode. */
    long failed(IOException error) {
        if (delayMillis == 0) {
            LOG.log(Level.WARNING, "Accepting connections failed (" + error + "); backing off");
        }
        delayMillis = delayMillis == 0 ? FIRST_MILLIS : Math.min(delayMillis * 2, MAX_MILLIS);
        return delayMillis;
    }

    /** An accept succeeded: the episode is over. */
    void succeeded() {
        delayMillis = 0;
    }

    /** Pauses after a failed accept; an interrupt (the acceptor closing) ends the pause early and stays set. */
    void pauseAfter(IOException error) {
        try {
            Thread.sleep(failed(error));
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        }
    }
}
