package io.sprout.engine.exchange;

import io.sprout.engine.http.HttpVersion;

/**
 * The one decision taken when a response commits: how its body is framed, which {@code Content-Length} it
 * declares, and whether the connection stays open. A pure function of {@link Facts}, so every rule lives here and
 * is unit-tested without a socket.
 *
 * @param framing how the body is delimited
 * @param contentLength the {@code Content-Length} to send, or -1 for none
 * @param keepAlive whether the connection may carry another request
 * @param connection the {@code Connection} field to send, or {@code null} for none (a 101 keeps the handler's)
 */
record ResponsePlan(ResponseFraming framing, long contentLength, boolean keepAlive, String connection) {

    /**
     * Everything the decision depends on.
     *
     * @param version the request's version
     * @param headRequest whether the request method is {@code HEAD}
     * @param status the response status
     * @param declaredLength the handler's {@code Content-Length}, or -1
     * @param complete whether the handler is done, so {@code bodyBytes} is the whole body
     * @param bodyBytes body bytes written so far (all of them when complete)
     * @param encoded whether a body encoding (compression) sits between the handler and the wire, so the length
     *     on the wire is unknown
     * @param handlerSaidClose whether the handler set {@code Connection: close}
     * @param clientWantsKeepAlive HTTP/1.1 without {@code Connection: close}, or HTTP/1.0 with keep-alive
     * @param serverAllowsKeepAlive not draining, under the keep-alive request limit, no unanswered
     *     {@code Expect: 100-continue}
     */
    record Facts(HttpVersion version, boolean headRequest, int status, long declaredLength, boolean complete,
            long bodyBytes, boolean encoded, boolean handlerSaidClose, boolean clientWantsKeepAlive,
            boolean serverAllowsKeepAlive) {
    }

    static ResponsePlan decide(Facts facts) {
        if (facts.status() == 101) {
            return new ResponsePlan(ResponseFraming.RAW, -1, false, null);
        }
        ResponseFraming framing = framing(facts);
        long length = contentLength(facts, framing);
        boolean keepAlive = facts.clientWantsKeepAlive() && facts.serverAllowsKeepAlive() && !facts.handlerSaidClose()
                && framing != ResponseFraming.CLOSE_DELIMITED;
        String connection = !keepAlive ? "close" : facts.version() == HttpVersion.HTTP_1_0 ? "keep-alive" : null;
        return new ResponsePlan(framing, length, keepAlive, connection);
    }

    private static ResponseFraming framing(Facts facts) {
        int status = facts.status();
        if (facts.headRequest() || status < 200 || status == 204 || status == 304) {
            return ResponseFraming.NONE;
        }
        if ((facts.declaredLength() >= 0 || facts.complete()) && !facts.encoded()) {
            return ResponseFraming.FIXED;
        }
        return facts.version() == HttpVersion.HTTP_1_1 ? ResponseFraming.CHUNKED : ResponseFraming.CLOSE_DELIMITED;
    }

    /** A declared length is kept (HEAD and 304 may announce the length a GET would have); else the known one. */
    private static long contentLength(Facts facts, ResponseFraming framing) {
        int status = facts.status();
        if (status < 200 || status == 204 || facts.encoded()) {
            return -1;
        }
        if (facts.declaredLength() >= 0) {
            return facts.declaredLength();
        }
        boolean knownWhole = facts.complete() && (framing == ResponseFraming.FIXED || facts.headRequest());
        return knownWhole ? facts.bodyBytes() : -1;
    }
}
