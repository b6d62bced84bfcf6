package io.sprout.engine.http2;

import java.util.Arrays;

/**
 * The settings of one SETTINGS frame as they arrive. Grows with the settings actually received rather than sizing
 * itself by the frame's announced length, so that nine header bytes cannot make the parser allocate megabytes.
 */
final class SettingsCollector {

    private static final int[] NO_IDS = {};
    private static final long[] NO_VALUES = {};

    private int[] ids = NO_IDS;
    private long[] values = NO_VALUES;
    private int count;

    void add(int id, long value) {
        if (count == ids.length) {
            int capacity = Math.max(8, count * 2);
            ids = Arrays.copyOf(ids, capacity);
            values = Arrays.copyOf(values, capacity);
        }
        ids[count] = id;
        values[count] = value;
        count++;
    }

    int[] ids() {
        return Arrays.copyOf(ids, count);
    }

    long[] values() {
        return Arrays.copyOf(values, count);
    }

    /** Forgets the settings and lets go of the arrays: SETTINGS frames are rare, an idle connection keeps nothing. */
    void clear() {
        ids = NO_IDS;
        values = NO_VALUES;
        count = 0;
    }
}
