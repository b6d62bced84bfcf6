package io.sprout.engine.exchange;

import io.sprout.engine.http.HeaderNames;
import io.sprout.engine.http.HttpVersion;
import io.sprout.engine.http.RequestHead;

/** Whether the client asked to keep the connection: HTTP/1.1 unless it said close, HTTP/1.0 only if it asked. */
final class KeepAlivePolicy {

    private KeepAlivePolicy() {
    }

    static boolean requested(RequestHead head) {
        if (head.version() == HttpVersion.HTTP_1_1) {
            return !head.headers().containsToken(HeaderNames.CONNECTION, "close");
        }
        return head.headers().containsToken(HeaderNames.CONNECTION, "keep-alive");
    }
}
