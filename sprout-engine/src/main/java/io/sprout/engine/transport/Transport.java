package io.sprout.engine.transport;

import java.io.IOException;
import java.util.List;

/**
 * How a server moves bytes: {@link LoopTransport}, in either execution mode. Driven by the server's lifecycle.
 *
 * <p>Public because the server package's {@code EngineServer} starts and stops it and asks it for its ports: the
 * lifecycle above drives the transport.
 */
public interface Transport {

    /**
     * Binds the listeners (the configured port, then the additional ones) and starts accepting.
     *
     * @throws BindFailure when a port cannot be bound; nothing is listening then
     */
    void start() throws IOException;

    /** The bound ports, main first; -1 for each once the listeners are closed. */
    List<Integer> ports();

    /** Stops accepting on every port; established connections carry on. */
    void closeListener();

    /** Closes connections that are waiting for a next request (graceful shutdown). */
    void closeIdleConnections();

    /** Closes everything now and waits for the transport's own threads to end. */
    void stop();
}
