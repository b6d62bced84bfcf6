package io.sprout.engine.http;

/**
 * The header list of an HTTP/2 request (or its trailers), checked field by field as HPACK decodes it, under the
 * rules of RFC 9113 §8.2 and §8.3, and turned into the same {@link RequestHead} an HTTP/1.1 request gives:
 * {@code :path} becomes the target, {@code :authority} the {@code Host} field when the client sent none, and
 * several {@code cookie} fields one (§8.2.3), so the layers above see one request model whatever the protocol.
 *
 * <p>A malformed list (§8.1.1) is not thrown while decoding, which must go on to keep the HPACK table in sync: the
 * first violation is kept and {@link #head()} or {@link #trailers()} throws it. Field names must be lower case,
 * pseudo-fields come first, once each, and only the four of a request; the connection-specific fields of HTTP/1.1
 * and a {@code te} other than {@code trailers} are refused; values carry no NUL, CR or LF and no whitespace at
 * either end.
 *
 * <p>Public because exchange's HTTP/2 stream builds each request from its decoded header block: the codec knows the
 * rules, the exchange when to apply them.
 */
public final class Http2RequestFields {

    private final boolean trailers;
    private final HeaderFields fields = new HeaderFields(12);
    private String method;
    private String scheme;
    private String path;
    private String authority;
    private boolean regularSeen;
    private String cookies;
    private String violation;

    /** @param trailers whether the list is a trailer section, which may carry no pseudo-fields */
    public Http2RequestFields(boolean trailers) {
        this.trailers = trailers;
    }

    /** Takes the next decoded field; a violation is remembered, not thrown. */
    public void field(String name, String value) {
        if (violation != null) {
            return;
        }
        if (!validName(name)) {
            violation = "Invalid field name " + name;
        } else if (!validValue(value)) {
            violation = "Invalid value of " + name;
        } else if (name.charAt(0) == ':') {
            pseudo(name, value);
        } else {
            regular(name, value);
        }
    }

    /**
     * The request head.
     *
     * @throws HttpException (400) when the list is malformed; over HTTP/2 a stream error of type PROTOCOL_ERROR
     */
    public RequestHead head() {
        if (violation == null) {
            if (method == null || scheme == null || path == null) {
                violation = "A request needs :method, :scheme and :path";
            } else if (method.equals(Methods.CONNECT)) {
                violation = "CONNECT is not supported";
            }
        }
        if (violation != null) {
            throw HttpException.badRequest(violation);
        }
        if (authority != null && !fields.contains(HeaderNames.HOST)) {
            fields.add(HeaderNames.HOST, authority);
        }
        if (cookies != null) {
            fields.add("cookie", cookies);
        }
        return new RequestHead(method, path, HttpVersion.HTTP_2, fields);
    }

    /**
     * The trailer fields.
     *
     * @throws HttpException (400) when the section is malformed
     */
    public HeaderFields trailers() {
        if (violation != null) {
            throw HttpException.badRequest(violation);
        }
        if (cookies != null) {
            fields.add("cookie", cookies);
        }
        return fields;
    }

    private void pseudo(String name, String value) {
        if (trailers || regularSeen) {
            violation = "Pseudo-field " + name + (trailers ? " in trailers" : " after a regular field");
            return;
        }
        switch (name) {
            case ":method" -> method = once(name, method, Methods.intern(value));
            case ":scheme" -> scheme = once(name, scheme, value);
            case ":authority" -> authority = once(name, authority, value);
            case ":path" -> {
                path = once(name, path, value);
                if (value.isEmpty() || value.charAt(0) != '/' && !value.equals("*")) {
                    violation = "Invalid :path";
                } else if (!validTarget(value)) {
                    violation = "Invalid :path";
                }
            }
            default -> violation = "Unknown pseudo-field " + name;
        }
    }

    private String once(String name, String previous, String value) {
        if (previous != null) {
            violation = "Pseudo-field " + name + " more than once";
        }
        return value;
    }

    private void regular(String name, String value) {
        regularSeen = true;
        switch (name) {
            case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade" ->
                    violation = "Connection-specific field " + name;
            case "te" -> {
                if (!value.equals("trailers")) {
                    violation = "te other than trailers";
                }
            }
            case "cookie" -> cookies = cookies == null ? value : cookies + "; " + value;
            default -> fields.add(name, value);
        }
    }

    /** A token in lower case, or a pseudo-field name (a colon and a lower-case token). */
    private static boolean validName(String name) {
        int start = !name.isEmpty() && name.charAt(0) == ':' ? 1 : 0;
        if (name.length() == start) {
            return false;
        }
        for (int i = start; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 'A' && c <= 'Z' || !Tokens.isTokenChar(c)) {
                return false;
            }
        }
        return true;
    }

    private static boolean validValue(String value) {
        int length = value.length();
        if (length > 0 && (Tokens.isWhitespace(value.charAt(0)) || Tokens.isWhitespace(value.charAt(length - 1)))) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (c > 0xff || !Tokens.isFieldValueByte(c)) {
                return false;
            }
        }
        return true;
    }

    private static boolean validTarget(String path) {
        for (int i = 0; i < path.length(); i++) {
            if (!Tokens.isTargetByte(path.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
