package io.sprout.engine.transport;

import java.io.IOException;

/** How a server moves bytes: the nio event loops or the hybrid blocking loop. Driven by the server's lifecycle. */
public interface Transport {

    /** Binds the listener and starts accepting. */
    void start() throws IOException;

    /** The bound port, or -1 once the listener is closed. */
    int port();

    /** Stops accepting; established connections carry on. */
    void closeListener();

    /** Closes connections that are waiting for a next request (graceful shutdown). */
    void closeIdleConnections();

    /** Closes everything now and waits for the transport's own threads to end. */
    void stop();
}
