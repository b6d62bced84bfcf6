package io.sprout.engine;

import java.util.List;

/**
 * An ordered list of header fields with case-insensitive names: a request's fields or trailers, or a response's
 * fields. Names keep the case they were given or parsed in; values carry no surrounding whitespace.
 *
 * <p>Not thread-safe: it belongs to its exchange and is used by whichever one thread works on the exchange at the
 * time. No method blocks. {@link io.sprout.engine.server.Sprout#headers()} makes an empty one, for example for a
 * test double of {@link HttpRequest} or {@link HttpResponse}.
 */
public interface Headers {

    /** The number of fields, counting each repeated name. */
    int size();

    boolean isEmpty();

    /** The name of the field at {@code index}, in arrival (or insertion) order. */
    String name(int index);

    /** The value of the field at {@code index}, in arrival (or insertion) order. */
    String value(int index);

    /** The first value of the named field, or {@code null}. */
    String get(String name);

    /** Every value of the named field, in order; empty when absent. */
    List<String> all(String name);

    boolean contains(String name);

    /**
     * Whether a comma-separated field value of this name lists {@code token} (case-insensitive), as
     * {@code Connection: keep-alive, Upgrade} lists {@code upgrade}.
     */
    boolean containsToken(String name, String token);

    /** The distinct names, in first-seen order, with the case of their first occurrence. */
    List<String> names();

    /** Appends a field, keeping any others of the same name. */
    Headers add(String name, String value);

    /** Replaces every field of this name with one field, or removes them when {@code value} is {@code null}. */
    Headers set(String name, String value);

    /** Removes every field of this name; returns whether any was present. */
    boolean remove(String name);
}
