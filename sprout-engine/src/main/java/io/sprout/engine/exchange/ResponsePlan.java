package io.sprout.engine.exchange;

import io.sprout.engine.http.HttpVersion;

/**
 * The one decision taken when a response commits: how its body is framed, which {@code Content-Length} it
 * declares, and whether the connection stays open. A pure function of {@link ResponseFacts}, so every rule lives
 * here and is unit-tested without a socket.
 *
 * @param framing how the body is delimited
 * @param contentLength the {@code Content-Length} to send, or -1 for none
 * @param keepAlive whether the connection may carry another request
 * @param connection the {@code Connection} field to send, or {@code null} for none (a 101 keeps the handler's)
 */
record ResponsePlan(ResponseFraming framing, long contentLength, boolean keepAlive, String connection) {

    static ResponsePlan decide(ResponseFacts facts) {
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

    private static ResponseFraming framing(ResponseFacts facts) {
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
    private static long contentLength(ResponseFacts facts, ResponseFraming framing) {
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
