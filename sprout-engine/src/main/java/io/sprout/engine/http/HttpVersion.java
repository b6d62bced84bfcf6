package io.sprout.engine.http;

/**
 * The protocol versions the engine speaks.
 *
 * <p>Public because exchange frames responses and decides keep-alive by it ({@code ResponsePlan},
 * {@code KeepAlivePolicy}) and writes it in status lines.
 */
public enum HttpVersion {
    HTTP_1_0("HTTP/1.0"),
    HTTP_1_1("HTTP/1.1"),
    /** Requests that arrived on an HTTP/2 stream; the text is what {@code ServletRequest.getProtocol()} reports. */
    HTTP_2("HTTP/2.0");

    private final String text;

    HttpVersion(String text) {
        this.text = text;
    }

    /** The version as it appears on the wire, e.g. {@code HTTP/1.1}. */
    public String text() {
        return text;
    }
}
