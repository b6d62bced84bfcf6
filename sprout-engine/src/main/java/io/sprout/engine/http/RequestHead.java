package io.sprout.engine.http;

/**
 * A parsed, syntactically valid request line and header section. Semantic checks (Host, framing, Expect) are
 * {@link RequestRules}'s job.
 *
 * <p>Public because exchange and transport carry the parsed head on to the handler: the codec's result flows upwards.
 */
public record RequestHead(String method, String target, HttpVersion version, HeaderFields headers) {

    public boolean isHead() {
        return method == Methods.HEAD;
    }
}
