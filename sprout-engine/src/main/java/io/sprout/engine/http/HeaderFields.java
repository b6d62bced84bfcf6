package io.sprout.engine.http;

import io.sprout.engine.Headers;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An ordered list of header fields with case-insensitive lookup: the request head's fields, a response's
 * fields, or a chunked body's trailers. It is what the public {@link Headers} hands out; engine code uses this class
 * directly, with the helpers the API does not offer ({@link #count}, {@link #clear}).
 *
 * <p>Not thread-safe: it belongs to the one exchange that fills it. Names keep the case they were given or
 * parsed in (common names arrive canonical from {@link HeaderNames}); values are stored without surrounding
 * whitespace.
 *
 * <p>Public because exchange keeps request, response and trailer fields in it and the server package's {@code Sprout}
 * hands out empty ones (for callers' test doubles): the codec's storage serves every layer above it.
 */
public final class HeaderFields implements Headers {

    private String[] names;
    private String[] values;
    private int size;

    public HeaderFields() {
        this(8);
    }

    public HeaderFields(int initialCapacity) {
        names = new String[Math.max(1, initialCapacity)];
        values = new String[names.length];
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    @Override
    public String name(int index) {
        checkIndex(index);
        return names[index];
    }

    @Override
    public String value(int index) {
        checkIndex(index);
        return values[index];
    }

    @Override
    public String get(String name) {
        int index = indexOf(name, 0);
        return index < 0 ? null : values[index];
    }

    @Override
    public List<String> all(String name) {
        List<String> found = new ArrayList<>(2);
        for (int i = indexOf(name, 0); i >= 0; i = indexOf(name, i + 1)) {
            found.add(values[i]);
        }
        return found;
    }

    /** How many fields carry this name. */
    public int count(String name) {
        int count = 0;
        for (int i = indexOf(name, 0); i >= 0; i = indexOf(name, i + 1)) {
            count++;
        }
        return count;
    }

    @Override
    public boolean contains(String name) {
        return indexOf(name, 0) >= 0;
    }

    @Override
    public List<String> names() {
        List<String> distinct = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            if (indexOf(names[i], 0) == i) {
                distinct.add(names[i]);
            }
        }
        return distinct;
    }

    @Override
    public HeaderFields add(String name, String value) {
        if (size == names.length) {
            names = Arrays.copyOf(names, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        names[size] = name;
        values[size] = value;
        size++;
        return this;
    }

    @Override
    public HeaderFields set(String name, String value) {
        int first = indexOf(name, 0);
        if (first < 0) {
            return value == null ? this : add(name, value);
        }
        if (value == null) {
            remove(name);
            return this;
        }
        names[first] = name;
        values[first] = value;
        removeFrom(name, first + 1);
        return this;
    }

    @Override
    public boolean remove(String name) {
        return removeFrom(name, 0);
    }

    public void clear() {
        Arrays.fill(names, 0, size, null);
        Arrays.fill(values, 0, size, null);
        size = 0;
    }

    @Override
    public boolean containsToken(String name, String token) {
        for (int i = indexOf(name, 0); i >= 0; i = indexOf(name, i + 1)) {
            if (TokenLists.contains(values[i], token)) {
                return true;
            }
        }
        return false;
    }

    private boolean removeFrom(String name, int from) {
        int kept = from;
        for (int i = from; i < size; i++) {
            if (!names[i].equalsIgnoreCase(name)) {
                names[kept] = names[i];
                values[kept] = values[i];
                kept++;
            }
        }
        boolean removed = kept != size;
        Arrays.fill(names, kept, size, null);
        Arrays.fill(values, kept, size, null);
        size = kept;
        return removed;
    }

    private int indexOf(String name, int from) {
        for (int i = from; i < size; i++) {
            String candidate = names[i];
            // Identity first: parsed and cached names are usually the very constant the caller passes.
            if (candidate == name || candidate.equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    private void checkIndex(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("field " + index + " of " + size);
        }
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < size; i++) {
            text.append(names[i]).append(": ").append(values[i]).append('\n');
        }
        return text.toString();
    }
}
