package io.sprout.engine.hpack;

/**
 * The dynamic table of RFC 7541 §2.3.2 and §4: a first-in, first-out list of fields, newest at index 1, bounded by
 * a size in octets (name octets + value octets + 32 per entry, §4.1). Adding evicts the oldest entries until the new
 * one fits; an entry larger than the whole table empties it and is not added (§4.4). A ring buffer, so adding and
 * evicting move no entries. Strings hold one char per octet, so a string's length is its octet count.
 */
final class DynamicTable {

    /** The per-entry overhead of §4.1. */
    static final int ENTRY_OVERHEAD = 32;

    private String[] names = new String[16];
    private String[] values = new String[16];
    private int oldest;
    private int length;
    private int size;
    private int maxSize;

    DynamicTable(int maxSize) {
        this.maxSize = maxSize;
    }

    static long entrySize(long nameLength, long valueLength) {
        return nameLength + valueLength + ENTRY_OVERHEAD;
    }

    /** The number of entries. */
    int length() {
        return length;
    }

    /** The sum of the entries' sizes. */
    int size() {
        return size;
    }

    int maxSize() {
        return maxSize;
    }

    /** The name at {@code index}, 1 (newest) to {@link #length()}. */
    String name(int index) {
        return names[slot(index)];
    }

    /** The value at {@code index}, 1 (newest) to {@link #length()}. */
    String value(int index) {
        return values[slot(index)];
    }

    void add(String name, String value) {
        long entrySize = entrySize(name.length(), value.length());
        if (entrySize > maxSize) {
            clear();
            return;
        }
        while (size + entrySize > maxSize) {
            evictOldest();
        }
        if (length == names.length) {
            grow();
        }
        int slot = (oldest + length) & (names.length - 1);
        names[slot] = name;
        values[slot] = value;
        length++;
        size += (int) entrySize;
    }

    /** A new maximum size (§4.3): evicts until the entries fit. */
    void maxSize(int newMaxSize) {
        maxSize = newMaxSize;
        while (size > maxSize) {
            evictOldest();
        }
    }

    void clear() {
        while (length > 0) {
            evictOldest();
        }
    }

    /** The index of the newest entry with this name and value, or 0. */
    int indexOf(String name, String value) {
        for (int index = 1; index <= length; index++) {
            int slot = slot(index);
            if (names[slot].equals(name) && values[slot].equals(value)) {
                return index;
            }
        }
        return 0;
    }

    /** The index of the newest entry with this name, or 0. */
    int indexOfName(String name) {
        for (int index = 1; index <= length; index++) {
            if (names[slot(index)].equals(name)) {
                return index;
            }
        }
        return 0;
    }

    private int slot(int index) {
        return (oldest + length - index) & (names.length - 1);
    }

    private void evictOldest() {
        size -= (int) entrySize(names[oldest].length(), values[oldest].length());
        names[oldest] = null;
        values[oldest] = null;
        oldest = (oldest + 1) & (names.length - 1);
        length--;
    }

    /** Doubles the ring (its capacity stays a power of two), the oldest entry moving to slot 0. */
    private void grow() {
        String[] newNames = new String[names.length * 2];
        String[] newValues = new String[names.length * 2];
        for (int i = 0; i < length; i++) {
            int slot = (oldest + i) & (names.length - 1);
            newNames[i] = names[slot];
            newValues[i] = values[slot];
        }
        names = newNames;
        values = newValues;
        oldest = 0;
    }
}
