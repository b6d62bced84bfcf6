package io.sprout.boot.websocket;

import jakarta.websocket.Decoder;
import jakarta.websocket.PongMessage;

import java.io.InputStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;

/**
 * Which kind of WebSocket message a Java type receives (Jakarta WebSocket 2.2 §4.7 and §6): text for
 * {@code String}, {@code Reader}, primitives and their boxes and text-decoded classes; binary for
 * {@code ByteBuffer}, {@code byte[]}, {@code InputStream} and binary-decoded classes; pong for
 * {@code PongMessage}. A session takes at most one handler of each kind.
 */
public final class MessageKinds {

    /** The three kinds of incoming message a handler can be registered for. */
    public enum Kind { TEXT, BINARY, PONG }

    private static final Set<Class<?>> SCALARS = Set.of(String.class, Boolean.class, Byte.class, Character.class,
            Short.class, Integer.class, Long.class, Float.class, Double.class);
    private static final Set<Class<?>> BINARY_TYPES = Set.of(ByteBuffer.class, byte[].class, InputStream.class);

    private MessageKinds() {
    }

    /** The kind of message {@code type} receives with these decoders, or {@code null} when none. */
    public static Kind of(Class<?> type, List<Class<? extends Decoder>> decoders) {
        Class<?> boxed = boxed(type);
        if (SCALARS.contains(boxed) || boxed == Reader.class) {
            return Kind.TEXT;
        }
        if (BINARY_TYPES.contains(boxed)) {
            return Kind.BINARY;
        }
        if (boxed == PongMessage.class) {
            return Kind.PONG;
        }
        for (Class<? extends Decoder> decoder : decoders) {
            Class<?> decoded = decodedType(decoder);
            if (decoded != null && boxed.isAssignableFrom(decoded)) {
                return Decoder.Text.class.isAssignableFrom(decoder)
                        || Decoder.TextStream.class.isAssignableFrom(decoder) ? Kind.TEXT : Kind.BINARY;
            }
        }
        return null;
    }

    /** Whether {@code type} is {@code String}, a primitive or a primitive's box: text without a codec. */
    public static boolean isScalar(Class<?> type) {
        return SCALARS.contains(boxed(type));
    }

    /** Whether a handler for {@code type} may receive a message in parts ({@code String}, {@code ByteBuffer}, {@code byte[]}). */
    public static boolean partialAllowed(Class<?> type) {
        return type == String.class || type == ByteBuffer.class || type == byte[].class;
    }

    /** The class a decoder produces, or {@code null} when its declaration does not say. */
    static Class<?> decodedType(Class<?> decoder) {
        for (Class<?> kind : List.of(Decoder.Text.class, Decoder.TextStream.class, Decoder.Binary.class,
                Decoder.BinaryStream.class)) {
            if (kind.isAssignableFrom(decoder)) {
                return GenericTypes.argument(decoder, kind);
            }
        }
        return null;
    }

    /** The wrapper class of a primitive type; any other type unchanged. */
    public static Class<?> boxed(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        return switch (type.getName()) {
            case "boolean" -> Boolean.class;
            case "byte" -> Byte.class;
            case "char" -> Character.class;
            case "short" -> Short.class;
            case "int" -> Integer.class;
            case "long" -> Long.class;
            case "float" -> Float.class;
            case "double" -> Double.class;
            default -> Void.class;
        };
    }

    /** Converts text to a primitive's box or {@code String} ({@code null} when {@code type} is neither). */
    public static Object parse(Class<?> type, String text) {
        Class<?> boxed = boxed(type);
        if (boxed == String.class) {
            return text;
        }
        if (boxed == Boolean.class) {
            return Boolean.valueOf(text);
        }
        if (boxed == Character.class) {
            if (text.length() != 1) {
                throw new IllegalArgumentException("[" + text + "] is not a single character");
            }
            return text.charAt(0);
        }
        if (boxed == Byte.class) {
            return Byte.valueOf(text);
        }
        if (boxed == Short.class) {
            return Short.valueOf(text);
        }
        if (boxed == Integer.class) {
            return Integer.valueOf(text);
        }
        if (boxed == Long.class) {
            return Long.valueOf(text);
        }
        if (boxed == Float.class) {
            return Float.valueOf(text);
        }
        if (boxed == Double.class) {
            return Double.valueOf(text);
        }
        return null;
    }
}
