package io.sprout.boot.servlet;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The storage of {@link Attributes}: names to values in one array, read without a lock and written under this
 * object's monitor. A {@code ConcurrentHashMap} would do the same with a node per entry; Spring MVC puts 21 names
 * on every request, so those nodes were most of what a request's attributes cost.
 *
 * <p>Open addressing with linear probing over {@code [name, value]} slot pairs. A removed attribute keeps its name
 * with a {@code null} value, so a probe passing it still reaches the names after it, and setting it again reuses the
 * slot. When names, live or removed, would pass three quarters of the slots, the live ones move to a new array; the
 * old one is never written again. A value is written before the name that leads to it, both with release semantics,
 * so a reader that finds a name sees its value.
 */
final class AttributeTable {

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    private volatile Object[] slots;
    /** Slot pairs holding a name, live or removed; under the monitor. */
    private int used;

    /** @param expected how many names the table takes before it first grows */
    AttributeTable(int expected) {
        slots = new Object[2 * capacityFor(expected)];
    }

    /** The smallest power of two whose three quarters hold {@code names}. */
    private static int capacityFor(int names) {
        int capacity = 4;
        while (names > limit(capacity)) {
            capacity <<= 1;
        }
        return capacity;
    }

    private static int limit(int capacity) {
        return capacity - (capacity >> 2);
    }

    /** Any thread, without blocking. */
    Object get(String name) {
        Object[] table = slots;
        int pair = find(table, name);
        // An absent name's empty pair is not read: a writer may be filling it with another name.
        return pair < 0 ? null : SLOT.getAcquire(table, pair + 1);
    }

    /** Returns the value replaced, or {@code null}; a {@code null} value is refused (use {@link #remove}). */
    synchronized Object put(String name, Object value) {
        Objects.requireNonNull(value, "value");
        Object[] table = slots;
        int pair = find(table, name);
        if (pair >= 0) {
            Object old = table[pair + 1];
            SLOT.setRelease(table, pair + 1, value);
            return old;
        }
        if (used + 1 > limit(table.length >> 1)) {
            table = rehash(table);
            pair = find(table, name);
        }
        pair = ~pair;
        used++;
        SLOT.setRelease(table, pair + 1, value);
        SLOT.setRelease(table, pair, name);
        return null;
    }

    /** Returns the value removed, or {@code null}. */
    synchronized Object remove(String name) {
        Object[] table = slots;
        int pair = find(table, name);
        Object old = pair < 0 ? null : table[pair + 1];
        if (old != null) {
            SLOT.setRelease(table, pair + 1, null);
        }
        return old;
    }

    /** A snapshot of the names that have a value. */
    List<String> names() {
        Object[] table = slots;
        List<String> names = new ArrayList<>();
        for (int pair = 0; pair < table.length; pair += 2) {
            Object name = SLOT.getAcquire(table, pair);
            if (name != null && SLOT.getAcquire(table, pair + 1) != null) {
                names.add((String) name);
            }
        }
        return names;
    }

    /**
     * The index of the pair holding {@code name}, or the complement ({@code ~index}) of the empty pair where it would
     * go; there always is one, as the table never fills past three quarters.
     */
    private static int find(Object[] table, String name) {
        int mask = (table.length >> 1) - 1;
        int hash = name.hashCode();
        for (int index = (hash ^ hash >>> 16) & mask; ; index = (index + 1) & mask) {
            Object present = SLOT.getAcquire(table, 2 * index);
            if (present == null) {
                return ~(2 * index);
            }
            // Names are strings, whose hash is cached: comparing it first spares a character-by-character equals
            // with every other name the probe passes, of which Spring MVC's long, alike names have many.
            if (present == name || present.hashCode() == hash && present.equals(name)) {
                return 2 * index;
            }
        }
    }

    /** Moves the live entries to a new array with room for as many again; under the monitor. */
    private Object[] rehash(Object[] table) {
        int live = 0;
        for (int pair = 0; pair < table.length; pair += 2) {
            if (table[pair + 1] != null) {
                live++;
            }
        }
        Object[] grown = new Object[2 * capacityFor(2 * (live + 1))];
        for (int pair = 0; pair < table.length; pair += 2) {
            if (table[pair + 1] != null) {
                int to = ~find(grown, (String) table[pair]);
                grown[to] = table[pair];
                grown[to + 1] = table[pair + 1];
            }
        }
        used = live;
        slots = grown;
        return grown;
    }
}
