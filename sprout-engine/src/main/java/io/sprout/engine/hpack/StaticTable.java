package io.sprout.engine.hpack;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The static table of RFC 7541 Appendix A: 61 fields every HPACK peer knows, at indexes 1 to 61. Entries with the
 * same name are adjacent, which {@link #indexOf(String, String)} relies on.
 */
final class StaticTable {

    /** The number of entries; dynamic table indexes start after it. */
    static final int LENGTH = 61;

    private static final String[] NAMES = {
        null,
        ":authority", ":method", ":method", ":path", ":path", ":scheme", ":scheme", ":status", ":status", ":status",
        ":status", ":status", ":status", ":status", "accept-charset", "accept-encoding", "accept-language",
        "accept-ranges", "accept", "access-control-allow-origin", "age", "allow", "authorization", "cache-control",
        "content-disposition", "content-encoding", "content-language", "content-length", "content-location",
        "content-range", "content-type", "cookie", "date", "etag", "expect", "expires", "from", "host", "if-match",
        "if-modified-since", "if-none-match", "if-range", "if-unmodified-since", "last-modified", "link", "location",
        "max-forwards", "proxy-authenticate", "proxy-authorization", "range", "referer", "refresh", "retry-after",
        "server", "set-cookie", "strict-transport-security", "transfer-encoding", "user-agent", "vary", "via",
        "www-authenticate",
    };

    private static final String[] VALUES = new String[LENGTH + 1];

    static {
        Arrays.fill(VALUES, 1, LENGTH + 1, "");
        VALUES[2] = "GET";
        VALUES[3] = "POST";
        VALUES[4] = "/";
        VALUES[5] = "/index.html";
        VALUES[6] = "http";
        VALUES[7] = "https";
        VALUES[8] = "200";
        VALUES[9] = "204";
        VALUES[10] = "206";
        VALUES[11] = "304";
        VALUES[12] = "400";
        VALUES[13] = "404";
        VALUES[14] = "500";
        VALUES[16] = "gzip, deflate";
    }

    /** Each name's first index. */
    private static final Map<String, Integer> FIRST_INDEX;

    static {
        Map<String, Integer> first = new HashMap<>();
        for (int i = LENGTH; i >= 1; i--) {
            first.put(NAMES[i], i);
        }
        FIRST_INDEX = Map.copyOf(first);
    }

    private StaticTable() {
    }

    /** The name at {@code index}, 1 to {@link #LENGTH}. */
    static String name(int index) {
        return NAMES[index];
    }

    /** The value at {@code index}, 1 to {@link #LENGTH}; empty for the entries that have only a name. */
    static String value(int index) {
        return VALUES[index];
    }

    /** The first index with this name, or 0. */
    static int indexOfName(String name) {
        return FIRST_INDEX.getOrDefault(name, 0);
    }

    /** The index with this name and value, or 0. */
    static int indexOf(String name, String value) {
        int first = indexOfName(name);
        if (first == 0) {
            return 0;
        }
        for (int i = first; i <= LENGTH && NAMES[i].equals(name); i++) {
            if (VALUES[i].equals(value)) {
                return i;
            }
        }
        return 0;
    }
}
