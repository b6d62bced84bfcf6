package io.sprout.engine.transport;

import java.io.IOException;

/**
 * One port of the server could not be bound; the ports bound before it have been closed again, so nothing listens.
 *
 * <p>Public because the server package's {@code EngineServer} turns it into the API's {@code PortBindException}:
 * the lifecycle above translates the transport's failure, the transport knows nothing of the API's exceptions.
 */
public final class BindFailure extends IOException {

    private static final long serialVersionUID = 1L;

    private final int port;

    BindFailure(int port, IOException cause) {
        super("Could not listen on port " + port, cause);
        this.port = port;
    }

    /** The port as configured. */
    public int port() {
        return port;
    }
}
