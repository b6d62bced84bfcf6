package io.sprout.boot.reactive;

import io.sprout.engine.Headers;
import org.springframework.http.HttpHeaders;
import org.springframework.util.LinkedCaseInsensitiveMap;
import org.springframework.util.MultiValueMap;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The engine's {@link Headers} as the {@link MultiValueMap} that backs Spring's {@link HttpHeaders}: a live view,
 * not a copy, so a header the application sets is the engine's at once, and names match case-insensitively as the
 * engine matches them. Names keep the case of their first occurrence and their first-seen order; the values of one
 * name keep their order. A name with an empty list of values is absent, as in the engine.
 *
 * <p>Not thread-safe, like the engine's headers it wraps: used by one thread at a time, the application's.
 */
final class SproutHeadersAdapter extends AbstractMap<String, List<String>> implements MultiValueMap<String, String> {

    private final Headers headers;

    SproutHeadersAdapter(Headers headers) {
        this.headers = headers;
    }

    @Override
    public String getFirst(String name) {
        return headers.get(name);
    }

    @Override
    public void add(String name, String value) {
        if (value != null) {
            headers.add(name, value);
        }
    }

    @Override
    public void addAll(String name, List<? extends String> values) {
        values.forEach(value -> add(name, value));
    }

    @Override
    public void addAll(MultiValueMap<String, String> values) {
        values.forEach(this::addAll);
    }

    @Override
    public void set(String name, String value) {
        headers.set(name, value);
    }

    @Override
    public void setAll(Map<String, String> values) {
        values.forEach(this::set);
    }

    @Override
    public Map<String, String> toSingleValueMap() {
        Map<String, String> single = new LinkedCaseInsensitiveMap<>(headers.size(), Locale.ROOT);
        for (String name : headers.names()) {
            single.put(name, headers.get(name));
        }
        return single;
    }

    @Override
    public int size() {
        return headers.names().size();
    }

    @Override
    public boolean isEmpty() {
        return headers.isEmpty();
    }

    @Override
    public boolean containsKey(Object name) {
        return name instanceof String text && headers.contains(text);
    }

    @Override
    public List<String> get(Object name) {
        return name instanceof String text && headers.contains(text) ? headers.all(text) : null;
    }

    /** Replaces the values in the place of the name's first field, so replacing does not reorder the fields. */
    @Override
    public List<String> put(String name, List<String> values) {
        List<String> previous = get(name);
        if (values.isEmpty()) {
            headers.remove(name);
            return previous;
        }
        headers.set(name, values.getFirst());
        addAll(name, values.subList(1, values.size()));
        return previous;
    }

    @Override
    public List<String> remove(Object name) {
        List<String> previous = get(name);
        if (previous != null) {
            headers.remove((String) name);
        }
        return previous;
    }

    @Override
    public void clear() {
        headers.names().forEach(headers::remove);
    }

    @Override
    public Set<Entry<String, List<String>>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, List<String>>> iterator() {
                return new Entries(headers.names().iterator());
            }

            @Override
            public int size() {
                return SproutHeadersAdapter.this.size();
            }
        };
    }

    @Override
    public String toString() {
        return HttpHeaders.formatHeaders(this);
    }

    /** Entries over a snapshot of the names, so that removing through the iterator cannot disturb it. */
    private final class Entries implements Iterator<Entry<String, List<String>>> {

        private final Iterator<String> names;
        private String current;

        Entries(Iterator<String> names) {
            this.names = names;
        }

        @Override
        public boolean hasNext() {
            return names.hasNext();
        }

        @Override
        public Entry<String, List<String>> next() {
            current = names.next();
            return new Field(current);
        }

        @Override
        public void remove() {
            if (current == null) {
                throw new NoSuchElementException("next() has not been called");
            }
            headers.remove(current);
            current = null;
        }
    }

    /** One name and its values as they were when the iterator reached it; {@code setValue} writes through. */
    private final class Field extends SimpleEntry<String, List<String>> {

        private static final long serialVersionUID = 1L;

        Field(String name) {
            super(name, headers.all(name));
        }

        @Override
        public List<String> setValue(List<String> values) {
            super.setValue(List.copyOf(values));
            return put(getKey(), values);
        }
    }
}
