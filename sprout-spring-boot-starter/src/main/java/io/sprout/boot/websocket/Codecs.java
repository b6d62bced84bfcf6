package io.sprout.boot.websocket;

import jakarta.websocket.DecodeException;
import jakarta.websocket.Decoder;
import jakarta.websocket.EncodeException;
import jakarta.websocket.Encoder;
import jakarta.websocket.EndpointConfig;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A session's encoders and decoders (Jakarta WebSocket 2.2 §4.1.4, §4.1.5), made from the endpoint's classes when
 * the session opens and destroyed when it closes. Built-in conversions come first: {@code String}, primitives and
 * their boxes as text, {@code ByteBuffer} and {@code byte[]} as binary. Decoding runs on the session's worker;
 * encoding on any thread that sends, so encoders are called under this object's lock.
 */
final class Codecs {

    /** An encoded message: text or binary. */
    sealed interface Encoded permits Text, Binary {
    }

    record Text(String text) implements Encoded {
    }

    record Binary(ByteBuffer data) implements Encoded {
    }

    private record Coder<T>(T instance, Class<?> type) {
    }

    private final List<Coder<Encoder>> encoders = new ArrayList<>();
    private final List<Coder<Decoder>> decoders = new ArrayList<>();

    /** @throws IllegalStateException when an encoder or decoder cannot be created */
    Codecs(EndpointConfig config) {
        for (Class<? extends Encoder> type : config.getEncoders()) {
            Encoder encoder = create(type);
            encoder.init(config);
            encoders.add(new Coder<>(encoder, encodedType(type)));
        }
        for (Class<? extends Decoder> type : config.getDecoders()) {
            Decoder decoder = create(type);
            decoder.init(config);
            decoders.add(new Coder<>(decoder, MessageKinds.decodedType(type)));
        }
    }

    /** Decodes a text message for a handler of {@code type} (not {@code String} or {@code Reader}). */
    Object decodeText(Class<?> type, String message) throws DecodeException, IOException {
        Class<?> boxed = MessageKinds.boxed(type);
        if (MessageKinds.isScalar(boxed)) {
            try {
                return MessageKinds.parse(boxed, message);
            } catch (IllegalArgumentException e) {
                throw new DecodeException(message, "Cannot convert the message to " + type.getName(), e);
            }
        }
        for (Coder<Decoder> coder : decoders) {
            if (coder.type() == null || !boxed.isAssignableFrom(coder.type())) {
                continue;
            }
            if (coder.instance() instanceof Decoder.Text<?> text && text.willDecode(message)) {
                return text.decode(message);
            }
            if (coder.instance() instanceof Decoder.TextStream<?> stream) {
                return stream.decode(new StringReader(message));
            }
        }
        throw new DecodeException(message, "No text decoder of the endpoint accepts the message for "
                + type.getName());
    }

    /** Decodes a binary message for a handler of {@code type} (not {@code ByteBuffer}, {@code byte[]} or a stream). */
    Object decodeBinary(Class<?> type, ByteBuffer message) throws DecodeException, IOException {
        for (Coder<Decoder> coder : decoders) {
            if (coder.type() == null || !type.isAssignableFrom(coder.type())) {
                continue;
            }
            if (coder.instance() instanceof Decoder.Binary<?> binary && binary.willDecode(message.duplicate())) {
                return binary.decode(message.duplicate());
            }
            if (coder.instance() instanceof Decoder.BinaryStream<?> stream) {
                return stream.decode(inputStream(message));
            }
        }
        throw new DecodeException(message, "No binary decoder of the endpoint accepts the message for "
                + type.getName());
    }

    static InputStream inputStream(ByteBuffer message) {
        ByteBuffer copy = message.duplicate();
        byte[] bytes = new byte[copy.remaining()];
        copy.get(bytes);
        return new ByteArrayInputStream(bytes);
    }

    /** Encodes an object for {@code sendObject}: built-in types, else the first encoder for its class. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    synchronized Encoded encode(Object data) throws EncodeException, IOException {
        if (data instanceof String text) {
            return new Text(text);
        }
        if (data instanceof ByteBuffer buffer) {
            return new Binary(buffer);
        }
        if (data instanceof byte[] bytes) {
            return new Binary(ByteBuffer.wrap(bytes));
        }
        for (Coder<Encoder> coder : encoders) {
            if (coder.type() == null || !coder.type().isInstance(data)) {
                continue;
            }
            Encoder encoder = coder.instance();
            if (encoder instanceof Encoder.Text text) {
                return new Text(text.encode(data));
            }
            if (encoder instanceof Encoder.TextStream stream) {
                StringWriter writer = new StringWriter();
                stream.encode(data, writer);
                return new Text(writer.toString());
            }
            if (encoder instanceof Encoder.Binary binary) {
                return new Binary(binary.encode(data));
            }
            if (encoder instanceof Encoder.BinaryStream stream) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                stream.encode(data, out);
                return new Binary(ByteBuffer.wrap(out.toByteArray()));
            }
        }
        if (data != null && MessageKinds.isScalar(data.getClass())) {
            return new Text(data.toString());
        }
        throw new EncodeException(data, "The endpoint has no encoder for "
                + (data == null ? "null" : data.getClass().getName()));
    }

    /** The session closed: every encoder and decoder is told, once. */
    void destroy() {
        encoders.forEach(coder -> coder.instance().destroy());
        decoders.forEach(coder -> coder.instance().destroy());
    }

    private static Class<?> encodedType(Class<?> encoder) {
        for (Class<?> kind : List.of(Encoder.Text.class, Encoder.TextStream.class, Encoder.Binary.class,
                Encoder.BinaryStream.class)) {
            if (kind.isAssignableFrom(encoder)) {
                return GenericTypes.argument(encoder, kind);
            }
        }
        return null;
    }

    private static <T> T create(Class<? extends T> type) {
        try {
            return type.getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot create " + type.getName()
                    + " (a public no-argument constructor is required)", e);
        }
    }
}
