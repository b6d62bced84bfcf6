package io.sprout.engine;

/**
 * The application side of the engine: turns one request into one response.
 *
 * <p>Called on a worker thread (a platform pool thread or a virtual thread, never an I/O event loop), so it may
 * block. The request body and the response body are streams over the connection: nothing is buffered whole.
 * When the method returns the response is completed (flushed, chunked terminator written) unless it already is.
 * An exception thrown before the response is committed becomes a {@code 500}; one thrown after it aborts the
 * connection, because the client can no longer be told.
 */
@FunctionalInterface
public interface RequestHandler {

    void handle(HttpRequest request, HttpResponse response) throws Exception;
}
