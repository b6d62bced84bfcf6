package io.sprout.engine.http;

import static io.sprout.engine.http.HeaderNames.*;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The parser's table of common field names: a name that arrives in any case comes back as the one canonical string
 * (a {@link HeaderNames} constant where there is one), so the usual request allocates no name strings. Immutable
 * after class initialisation; any thread.
 */
final class HeaderNameCache {

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

    private HeaderNameCache() {
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
        int longest = Arrays.stream(COMMON).mapToInt(String::length).max().orElse(0);
        String[][] index = new String[longest + 1][];
        for (int length = 0; length <= longest; length++) {
            int wanted = length;
            index[length] = Arrays.stream(COMMON).filter(name -> name.length() == wanted).toArray(String[]::new);
        }
        return index;
    }
}
