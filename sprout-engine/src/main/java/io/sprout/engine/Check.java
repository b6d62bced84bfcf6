package io.sprout.engine;

import java.time.Duration;

/** Argument checks for the config records: every message names the field and what it allows. */
final class Check {

    private Check() {
    }

    static void range(String field, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    field + " must be between " + min + " and " + max + " but was " + value);
        }
    }

    static void positive(String field, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(field + " must be a positive duration but was " + value);
        }
    }

    static void notNegative(String field, Duration value) {
        if (value == null || value.isNegative()) {
            throw new IllegalArgumentException(field + " must be zero or a positive duration but was " + value);
        }
    }

    static <T> T notNull(String field, T value) {
        if (value == null) {
            throw new IllegalArgumentException(field + " must not be null");
        }
        return value;
    }
}
