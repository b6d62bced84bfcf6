package io.sprout.engine.http;

/**
 * Common header names as shared constants. Parsing a common name returns the constant in its canonical case
 * ({@link HeaderNameCache}), so the usual request allocates no name strings, and lookups by these constants hit the
 * identity fast path.
 *
 * <p>Public because exchange and {@code hello} name the fields they set and check with these constants: every layer
 * above the codec may name a header.
 */
public final class HeaderNames {

    public static final String ACCEPT = "Accept";
    public static final String ACCEPT_ENCODING = "Accept-Encoding";
    public static final String ACCEPT_LANGUAGE = "Accept-Language";
    public static final String AUTHORIZATION = "Authorization";
    public static final String CACHE_CONTROL = "Cache-Control";
    public static final String CONNECTION = "Connection";
    public static final String CONTENT_ENCODING = "Content-Encoding";
    public static final String CONTENT_LENGTH = "Content-Length";
    public static final String CONTENT_TYPE = "Content-Type";
    public static final String COOKIE = "Cookie";
    public static final String DATE = "Date";
    public static final String EXPECT = "Expect";
    public static final String HOST = "Host";
    public static final String KEEP_ALIVE = "Keep-Alive";
    public static final String ORIGIN = "Origin";
    public static final String PRAGMA = "Pragma";
    public static final String REFERER = "Referer";
    public static final String SERVER = "Server";
    public static final String TE = "TE";
    public static final String TRAILER = "Trailer";
    public static final String TRANSFER_ENCODING = "Transfer-Encoding";
    public static final String UPGRADE = "Upgrade";
    public static final String USER_AGENT = "User-Agent";

    private HeaderNames() {
    }
}
