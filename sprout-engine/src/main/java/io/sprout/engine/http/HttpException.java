package io.sprout.engine.http;

/**
 * A request the engine must refuse, carrying the status to answer with. After answering, the connection is
 * closed: once framing is in doubt, nothing more that arrives on it can be trusted.
 *
 * <p>Thrown often by hostile input and always handled by the transport, so it carries no stack trace.
 *
 * <p>Public because exchange and transport catch it and answer with its status: the codec throws, the layers above turn
 * it into a response.
 */
public final class HttpException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;

    public HttpException(int status, String reason) {
        super(reason, null, false, false);
        this.status = status;
    }

    /** The status code to answer with: 400, 408, 413, 414, 417, 431, 501 or 505. */
    public int status() {
        return status;
    }

    static HttpException badRequest(String reason) {
        return new HttpException(400, reason);
    }
}
