package io.sprout.engine;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * {@link SproutServer#start()} could not listen on one of its ports, as data: {@link #port()} says which one (the
 * main port or one of the additional ports, as configured), and the cause is the {@link java.net.BindException}
 * (port in use, address not on this host) or other {@link IOException} the socket reported. Nothing is listening
 * when it is thrown: the ports already bound have been closed again.
 */
public final class PortBindException extends UncheckedIOException {

    private static final long serialVersionUID = 1L;

    private final int port;

    /**
     * Public because the server is assembled outside the API package ({@code io.sprout.engine.server}), like the
     * exchange that throws {@link RequestBodyException}.
     *
     * @param port the port as configured
     * @param cause what the socket reported
     */
    public PortBindException(int port, IOException cause) {
        super("Could not listen on port " + port + ": " + cause.getMessage(), cause);
        this.port = port;
    }

    /** The port as configured (0 for an ephemeral one) whose socket could not be bound. */
    public int port() {
        return port;
    }
}
