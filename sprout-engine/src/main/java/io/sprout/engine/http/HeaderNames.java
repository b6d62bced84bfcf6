package io.sprout.engine.http;

import java.nio.charset.StandardCharsets;

/**
 * Common header names as shared constants. Parsing a common name returns the constant in its canonical case, so
 * the usual request allocates no name strings, and lookups by these constants hit the identity fast path.
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

    private static final String[] COMMON = {
        ACCEPT, ACCEPT_ENCODING, ACCEPT_LANGUAGE, AUTHORIZATION, CACHE_CONTROL, CONNECTION, CONTENT_ENCODING,
        CONTENT_LENGTH, CONTENT_TYPE, COOKIE, DATE, EXPECT, HOST, KEEP_ALIVE, ORIGIN, PRAGMA, REFERER, SERVER, TE,
        TRAILER, TRANSFER_ENCODING, UPGRADE, USER_AGENT, "Accept-Charset", "Forwarded", "If-Modified-Since",
        "If-None-Match", "Range", "Upgrade-Insecure-Requests", "Sec-Fetch-Dest", "Sec-Fetch-Mode", "Sec-Fetch-Site",
        "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Port", "X-Forwarded-Proto", "X-Requested-With",
        "Priority", "DNT", "Via"
    };

    /** The common names indexed by length, so a lookup compares against a handful of candidates. */
    private static final String[][] BY_LENGTH = indexByLength();

    private HeaderNames() {
    }

    /** The canonical constant for a common name (any case), else a new string of the bytes as sent. */
    static String of(byte[] bytes, int offset, int length) {
        if (length < BY_LENGTH.length) {
            for (String candidate : BY_LENGTH[length]) {
                if (Ascii.equalsIgnoreCase(candidate, bytes, offset, length)) {
                    return candidate;
                }
            }
        }
        return new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
    }

    private static String[][] indexByLength() {
        int longest = 0;
        for (String name : COMMON) {
            longest = Math.max(longest, name.length());
        }
        String[][] index = new String[longest + 1][];
        for (int length = 0; length <= longest; length++) {
            int count = 0;
            for (String name : COMMON) {
                count += name.length() == length ? 1 : 0;
            }
            index[length] = new String[count];
            int at = 0;
            for (String name : COMMON) {
                if (name.length() == length) {
                    index[length][at++] = name;
                }
            }
        }
        return index;
    }
}
