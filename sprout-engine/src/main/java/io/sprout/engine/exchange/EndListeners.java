package io.sprout.engine.exchange;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Who wants to hear that an exchange ended, and how: told once, with {@code null} for a completed response or the
 * cause of an abort; a listener added afterwards is told at once. Listeners run on the thread that ends the
 * exchange, outside any lock. Thread-safe.
 */
final class EndListeners {

    private static final System.Logger LOG = System.getLogger(EndListeners.class.getName());

    private List<Consumer<Throwable>> listeners;
    private boolean told;
    private Throwable cause;

    void add(Consumer<Throwable> listener) {
        synchronized (this) {
            if (!told) {
                if (listeners == null) {
                    listeners = new ArrayList<>(2);
                }
                listeners.add(listener);
                return;
            }
        }
        tell(listener, cause);
    }

    /** Tells every listener; {@code failure} is {@code null} when the response completed. */
    void tellAll(Throwable failure) {
        List<Consumer<Throwable>> waiting;
        synchronized (this) {
            cause = failure;
            told = true;
            waiting = listeners == null ? List.of() : List.copyOf(listeners);
            listeners = null;
        }
        for (Consumer<Throwable> listener : waiting) {
            tell(listener, failure);
        }
    }

    private static void tell(Consumer<Throwable> listener, Throwable failure) {
        try {
            listener.accept(failure);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "An exchange end listener failed", e);
        }
    }
}
