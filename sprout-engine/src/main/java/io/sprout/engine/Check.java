package io.sprout.engine;

import java.time.Duration;

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

    private static String between(long min, long max) {
        return "between " + min + " and " + max;
    }
}
