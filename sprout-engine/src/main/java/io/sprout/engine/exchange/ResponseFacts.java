package io.sprout.engine.exchange;

import io.sprout.engine.http.HttpVersion;

/**
 * Everything the commit-time decision of a {@link ResponsePlan} depends on, gathered by the wire when the
 * response commits.
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
record ResponseFacts(HttpVersion version, boolean headRequest, int status, long declaredLength, boolean complete,
        long bodyBytes, boolean encoded, boolean handlerSaidClose, boolean clientWantsKeepAlive,
        boolean serverAllowsKeepAlive) {
}
