package io.sprout.engine;

import java.time.Duration;
import java.util.List;

/** Argument checks for the config records: each failure is an {@link InvalidConfigException} naming the field. */
final class Check {

    private Check() {
    }

    static void range(String field, long value, long min, long max) {
        if (value < min || value > max) {
            throw new InvalidConfigException(field, value, between(min, max));
        }
    }

    /** Like {@link #range}, but {@code -1} also passes: it means "no limit". */
    static void rangeOrUnlimited(String field, long value, long min, long max) {
        if (value != -1 && (value < min || value > max)) {
            throw new InvalidConfigException(field, value, "-1 (no limit) or " + between(min, max));
        }
    }

    /** Like {@link #range}, but {@code 0} also passes: it means "leave it to the OS". */
    static void zeroOrRange(String field, long value, long min, long max) {
        if (value != 0 && (value < min || value > max)) {
            throw new InvalidConfigException(field, value, "0 (the OS default) or " + between(min, max));
        }
    }

    /** Every element is a TCP port (0 to 65535); returns an unmodifiable copy. */
    static List<Integer> ports(String field, List<Integer> value) {
        notNull(field, value);
        for (Integer port : value) {
            if (port == null || port < 0 || port > 65535) {
                throw new InvalidConfigException(field, value, "a list of ports, each " + between(0, 65535));
            }
        }
        return List.copyOf(value);
    }

    static void positive(String field, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new InvalidConfigException(field, value, "a positive duration");
        }
    }

    static void notNegative(String field, Duration value) {
        if (value == null || value.isNegative()) {
            throw new InvalidConfigException(field, value, "zero or a positive duration");
        }
    }

    static <T> T notNull(String field, T value) {
        if (value == null) {
            throw new InvalidConfigException(field, null, "non-null");
        }
        return value;
    }

    static void printableAscii(String field, String value) {
        if (value != null && !value.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
            throw new InvalidConfigException(field, value, "printable ASCII");
        }
    }

    /** An immutable copy of {@code values}, each of which must be one of {@code supported}. */
    static List<String> subsetOf(String field, List<String> values, List<String> supported) {
        boolean valid = values != null;
        for (int i = 0; valid && i < values.size(); i++) {
            valid = values.get(i) != null && supported.contains(values.get(i));
        }
        if (!valid) {
            throw new InvalidConfigException(field, values, "empty (the defaults) or some of " + supported);
        }
        return List.copyOf(values);
    }

    private static String between(long min, long max) {
        return "between " + min + " and " + max;
    }
}
