package io.sprout.engine.http;

/**
 * How the end of a request body is found (RFC 9112 §6).
 *
 * <p>Public because exchange ({@code Http1RequestWire}, {@code Exchange}) reads the request body by it: the codec
 * decides the framing, the exchange acts on it.
 */
public sealed interface BodyFraming {

    /** No body at all. */
    BodyFraming NONE = new Fixed(0);

    /** Exactly {@code length} bytes follow the head. */
    record Fixed(long length) implements BodyFraming {
    }

    /** A chunked body, ending with a zero-size chunk and optional trailers. */
    record Chunked() implements BodyFraming {
    }

    /** The declared length, or -1 for a chunked body. */
    default long declaredLength() {
        return switch (this) {
            case Fixed fixed -> fixed.length();
            case Chunked chunked -> -1;
        };
    }
}
