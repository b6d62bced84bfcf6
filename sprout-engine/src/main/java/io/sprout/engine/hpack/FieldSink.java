package io.sprout.engine.hpack;

/**
 * Receives the fields of a header block in the order the block lists them, on the thread that calls
 * {@link HpackDecoder#decode}; it must not block.
 *
 * <p>Public because exchange's HTTP/2 session passes one to {@link HpackDecoder#decode} to collect a request's fields.
 */
@FunctionalInterface
public interface FieldSink {

    /** One decoded field; the strings hold one char per octet (ISO-8859-1) and are not checked. */
    void field(String name, String value);
}
