package io.sprout.engine.http;

/**
 * The semantic checks on a syntactically valid head (RFC 9110, RFC 9112 §3.2 and §6.3), answering the question
 * that matters most for request smuggling: where does this request's body end?
 *
 * <ul>
 *   <li>{@code CONNECT}: 501. A target that is neither origin-form, absolute-form nor {@code *} for
 *       {@code OPTIONS}: 400.</li>
 *   <li>Host: required exactly once on HTTP/1.1, at most once on HTTP/1.0, syntactically valid, and equal to the
 *       authority of an absolute-form target: else 400.</li>
 *   <li>Transfer-Encoding: not on HTTP/1.0, never with Content-Length, {@code chunked} exactly once and last:
 *       else 400; another coding before it: 501.</li>
 *   <li>Content-Length: at most one field of plain decimal digits without overflow: else 400; more than the
 *       body limit: 413.</li>
 *   <li>Expect: only {@code 100-continue}: else 417.</li>
 * </ul>
 *
 * <p>Public because exchange's {@code Exchange} applies these rules to every head before its handler runs: the codec
 * knows the rules, the exchange when to apply them.
 */
public final class RequestRules {

    private static final String CHUNKED = "chunked";
    private static final String CONTINUE = "100-continue";

    private RequestRules() {
    }

    /**
     * Checks the head and tells how its body is framed.
     *
     * @param maxBodySize the largest accepted body, or -1 for no limit
     * @throws HttpException with the status to answer
     */
    public static BodyFraming validate(RequestHead head, long maxBodySize) {
        if (head.method().equals(Methods.CONNECT)) {
            throw new HttpException(501, "CONNECT is not supported");
        }
        String host = checkHost(head);
        checkTarget(head, host);
        checkExpect(head.headers());
        BodyFraming framing = framing(head);
        if (maxBodySize >= 0 && framing.declaredLength() > maxBodySize) {
            throw new HttpException(413, "Request body larger than " + maxBodySize + " bytes");
        }
        return framing;
    }

    /** Whether the client waits for {@code 100 Continue} before sending the body (HTTP/1.1 and HTTP/2). */
    public static boolean expectsContinue(RequestHead head) {
        return head.version() != HttpVersion.HTTP_1_0 && head.headers().contains(HeaderNames.EXPECT);
    }

    private static String checkHost(RequestHead head) {
        HeaderFields headers = head.headers();
        int count = headers.count(HeaderNames.HOST);
        if (count > 1) {
            throw HttpException.badRequest("More than one Host field");
        }
        if (count == 0) {
            if (head.version() == HttpVersion.HTTP_1_1) {
                throw HttpException.badRequest("Missing Host field");
            }
            return null;
        }
        String host = headers.get(HeaderNames.HOST);
        if (!Authority.isValid(host)) {
            throw HttpException.badRequest("Invalid Host field");
        }
        return host;
    }

    private static void checkTarget(RequestHead head, String host) {
        String target = head.target();
        char first = target.charAt(0);
        if (first == '/') {
            return;
        }
        if (target.equals("*")) {
            if (!head.method().equals(Methods.OPTIONS)) {
                throw HttpException.badRequest("Asterisk-form target is only valid for OPTIONS");
            }
            return;
        }
        String authority = Authority.ofAbsoluteTarget(target);
        if (authority == null) {
            throw HttpException.badRequest("Malformed request target");
        }
        if (host != null && !authority.equalsIgnoreCase(host)) {
            throw HttpException.badRequest("Host field differs from the target's authority");
        }
    }

    private static void checkExpect(HeaderFields headers) {
        int count = headers.count(HeaderNames.EXPECT);
        if (count > 1 || count == 1 && !headers.get(HeaderNames.EXPECT).equalsIgnoreCase(CONTINUE)) {
            throw new HttpException(417, "Only Expect: 100-continue is supported");
        }
    }

    private static BodyFraming framing(RequestHead head) {
        HeaderFields headers = head.headers();
        boolean hasLength = headers.contains(HeaderNames.CONTENT_LENGTH);
        if (headers.contains(HeaderNames.TRANSFER_ENCODING)) {
            if (head.version() == HttpVersion.HTTP_1_0) {
                throw HttpException.badRequest("Transfer-Encoding on HTTP/1.0");
            }
            if (hasLength) {
                throw HttpException.badRequest("Both Content-Length and Transfer-Encoding");
            }
            checkTransferCodings(headers);
            return new BodyFraming.Chunked();
        }
        if (!hasLength) {
            return BodyFraming.NONE;
        }
        if (headers.count(HeaderNames.CONTENT_LENGTH) > 1) {
            throw HttpException.badRequest("More than one Content-Length field");
        }
        long length = parseLength(headers.get(HeaderNames.CONTENT_LENGTH));
        return length == 0 ? BodyFraming.NONE : new BodyFraming.Fixed(length);
    }

    /** Walks every coding of every Transfer-Encoding field: {@code chunked} must occur once, last. */
    private static void checkTransferCodings(HeaderFields headers) {
        boolean chunkedSeen = false;
        boolean unknownSeen = false;
        for (String value : headers.all(HeaderNames.TRANSFER_ENCODING)) {
            int start = 0;
            while (start <= value.length()) {
                int comma = value.indexOf(',', start);
                int end = comma < 0 ? value.length() : comma;
                String coding = value.substring(start, end).strip();
                if (coding.isEmpty() || chunkedSeen) {
                    throw HttpException.badRequest("Transfer-Encoding must end with one chunked coding");
                }
                if (coding.equalsIgnoreCase(CHUNKED)) {
                    chunkedSeen = true;
                } else {
                    unknownSeen = true;
                }
                start = end + 1;
            }
        }
        if (!chunkedSeen) {
            throw HttpException.badRequest("Transfer-Encoding must end with chunked");
        }
        if (unknownSeen) {
            throw new HttpException(501, "Only the chunked transfer coding is supported");
        }
    }

    /** Plain decimal digits only: no sign, no spaces, no list, no overflow. */
    static long parseLength(String value) {
        if (value.isEmpty() || value.length() > 18) {
            throw HttpException.badRequest("Invalid Content-Length");
        }
        long length = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                throw HttpException.badRequest("Invalid Content-Length");
            }
            length = length * 10 + (c - '0');
        }
        return length;
    }
}
