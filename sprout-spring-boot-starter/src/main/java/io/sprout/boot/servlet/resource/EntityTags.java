package io.sprout.boot.servlet.resource;

import java.util.ArrayList;
import java.util.List;

/**
 * Entity tags (RFC 9110 §8.8.3) for static resources and the two ways to compare them. A resource's tag is strong,
 * built from its modification time and length as nginx builds it ({@code "<mtime hex>-<length hex>"}), so
 * {@code If-Match} and {@code If-Range}, which compare strongly, can match it.
 */
final class EntityTags {

    private EntityTags() {
    }

    static String of(ContextResource resource) {
        return "\"" + Long.toHexString(resource.lastModified()) + "-" + Long.toHexString(resource.length()) + "\"";
    }

    /**
     * Whether a list header ({@code If-Match}, {@code If-None-Match}) holds {@code *} or a tag equal to
     * {@code current}, weakly (the opaque parts alone) or strongly (neither weak). Unparsable members never match.
     */
    static boolean listMatches(String header, String current, boolean strong) {
        if (header.trim().equals("*")) {
            return true;
        }
        for (String tag : parseList(header)) {
            if (strong ? strongMatch(tag, current) : opaque(tag).equals(opaque(current))) {
                return true;
            }
        }
        return false;
    }

    static boolean strongMatch(String tag, String current) {
        return !tag.startsWith("W/") && !current.startsWith("W/") && tag.equals(current);
    }

    private static String opaque(String tag) {
        return tag.startsWith("W/") ? tag.substring(2) : tag;
    }

    /** The well-formed tags of a comma-separated list; commas inside quotes do not split. */
    static List<String> parseList(String header) {
        List<String> tags = new ArrayList<>();
        int i = 0;
        while (i < header.length()) {
            char c = header.charAt(i);
            if (c == ',' || c == ' ' || c == '\t') {
                i++;
                continue;
            }
            int start = i;
            if (header.startsWith("W/", i)) {
                i += 2;
            }
            int close = i < header.length() && header.charAt(i) == '"' ? header.indexOf('"', i + 1) : -1;
            if (close < 0) {
                int comma = header.indexOf(',', i);
                i = comma < 0 ? header.length() : comma;
                continue;
            }
            tags.add(header.substring(start, close + 1));
            i = close + 1;
        }
        return tags;
    }
}
