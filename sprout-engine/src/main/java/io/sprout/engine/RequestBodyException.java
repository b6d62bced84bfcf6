package io.sprout.engine;

import java.io.IOException;

/**
 * What a read of {@link HttpRequest#body()} throws when the engine rejects the body as it arrives, for example a
 * broken chunked coding (400). It is an {@link IOException}, as from any broken stream, so handlers need no special
 * case; containers that map failures to error pages recognise it and leave the answer to the engine. Whatever the
 * handler does with it, the exchange answers {@link #status()} (unless the response is already committed, in which
 * case the connection is aborted) and closes the connection: once framing is in doubt, nothing more on it can be
 * trusted.
 *
 * <p>Thrown on the thread that reads the body.
 */
public final class RequestBodyException extends IOException {

    private static final long serialVersionUID = 1L;

    private final int status;

    /**
     * @param status the client error status the exchange answers with, 400–499
     * @param message what was wrong with the body
     * @throws IllegalArgumentException when {@code status} is not a client error
     */
    public RequestBodyException(int status, String message) {
        super(message);
        if (status < 400 || status > 499) {
            throw new IllegalArgumentException("status must be a client error (400-499) but was " + status);
        }
        this.status = status;
    }

    /** The status the exchange answers with, e.g. 400 for a malformed chunked coding. */
    public int status() {
        return status;
    }
}
