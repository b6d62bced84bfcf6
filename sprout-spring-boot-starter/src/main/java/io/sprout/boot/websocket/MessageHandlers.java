package io.sprout.boot.websocket;

import io.sprout.boot.websocket.MessageKinds.Kind;
import jakarta.websocket.DecodeException;
import jakarta.websocket.Decoder;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.PongMessage;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A session's message handlers (Jakarta WebSocket 2.2 §2.1.3): at most one each for text, binary and pong
 * messages, a second one of a kind being an {@link IllegalStateException}. Delivers whole messages as the engine
 * assembles them, and to a partial handler the parts the engine delivers as they arrive.
 * Registration may happen on any thread, delivery happens on the session's worker one message at a time.
 */
final class MessageHandlers {

    private record Registered(MessageHandler handler, Class<?> type, boolean partial) {
    }

    private final List<Class<? extends Decoder>> decoders;
    private final Map<Kind, Registered> handlers = new EnumMap<>(Kind.class);

    MessageHandlers(List<Class<? extends Decoder>> decoders) {
        this.decoders = decoders;
    }

    /** {@code Session.addMessageHandler(MessageHandler)}: the message type from the handler's declaration. */
    void add(MessageHandler handler) {
        boolean partial = handler instanceof MessageHandler.Partial<?>;
        Class<?> target = partial ? MessageHandler.Partial.class : MessageHandler.Whole.class;
        Class<?> type = GenericTypes.argument(handler.getClass(), target);
        if (type == null) {
            throw new IllegalStateException("Sprout cannot tell which message type the handler "
                    + handler.getClass().getName() + " takes (a lambda keeps no type arguments): use "
                    + "Session.addMessageHandler(Class, handler)");
        }
        add(type, handler, partial);
    }

    synchronized void add(Class<?> type, MessageHandler handler, boolean partial) {
        Kind kind = MessageKinds.of(type, decoders);
        if (kind == null) {
            throw new IllegalStateException("No message of type " + type.getName()
                    + " can be delivered: it is not a built-in type and no decoder of the endpoint produces it");
        }
        if (partial && !MessageKinds.partialAllowed(type)) {
            throw new IllegalStateException("A partial message handler takes String, ByteBuffer or byte[], not "
                    + type.getName());
        }
        Registered existing = handlers.get(kind);
        if (existing != null) {
            throw new IllegalStateException("The session already has a " + kind.name().toLowerCase()
                    + " message handler (" + existing.handler().getClass().getName() + "); remove it first");
        }
        handlers.put(kind, new Registered(handler, type, partial));
    }

    synchronized void remove(MessageHandler handler) {
        handlers.values().removeIf(registered -> registered.handler() == handler);
    }

    synchronized Set<MessageHandler> all() {
        Set<MessageHandler> all = new HashSet<>();
        handlers.values().forEach(registered -> all.add(registered.handler()));
        return all;
    }

    private synchronized Registered get(Kind kind) {
        return handlers.get(kind);
    }

    /** Whether the handler of this kind, if any, takes messages in parts. */
    boolean inParts(Kind kind) {
        Registered registered = get(kind);
        return registered != null && registered.partial();
    }

    /** A part for the partial text handler; dropped when the handler was removed in the middle of a message. */
    @SuppressWarnings("unchecked")
    void textPart(String part, boolean last) {
        Registered registered = get(Kind.TEXT);
        if (registered != null && registered.partial()) {
            ((MessageHandler.Partial<String>) registered.handler()).onMessage(part, last);
        }
    }

    /** A part for the partial binary handler, as a {@code ByteBuffer} or a {@code byte[]} as it was declared. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    void binaryPart(ByteBuffer part, boolean last) {
        Registered registered = get(Kind.BINARY);
        if (registered != null && registered.partial()) {
            Object value = registered.type() == byte[].class ? bytes(part) : part;
            ((MessageHandler.Partial) registered.handler()).onMessage(value, last);
        }
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    /** @return {@code false} when no text handler is registered */
    @SuppressWarnings({"unchecked", "rawtypes"})
    boolean text(String message, Codecs codecs) throws DecodeException, IOException {
        Registered registered = get(Kind.TEXT);
        if (registered == null) {
            return false;
        }
        if (registered.partial()) {
            ((MessageHandler.Partial) registered.handler()).onMessage(message, true);
            return true;
        }
        Object value = registered.type() == String.class ? message
                : registered.type() == Reader.class ? new StringReader(message)
                : codecs.decodeText(registered.type(), message);
        ((MessageHandler.Whole) registered.handler()).onMessage(value);
        return true;
    }

    /** @return {@code false} when no binary handler is registered */
    @SuppressWarnings({"unchecked", "rawtypes"})
    boolean binary(ByteBuffer message, Codecs codecs) throws DecodeException, IOException {
        Registered registered = get(Kind.BINARY);
        if (registered == null) {
            return false;
        }
        Object value;
        if (registered.type() == ByteBuffer.class) {
            value = message;
        } else if (registered.type() == byte[].class) {
            value = bytes(message);
        } else if (registered.type() == InputStream.class) {
            value = Codecs.inputStream(message);
        } else {
            value = codecs.decodeBinary(registered.type(), message);
        }
        if (registered.partial()) {
            ((MessageHandler.Partial) registered.handler()).onMessage(value, true);
        } else {
            ((MessageHandler.Whole) registered.handler()).onMessage(value);
        }
        return true;
    }

    /** Pongs nobody listens for are dropped, as RFC 6455 §5.5.3 allows for unsolicited ones. */
    @SuppressWarnings("unchecked")
    void pong(ByteBuffer payload) {
        Registered registered = get(Kind.PONG);
        if (registered != null) {
            PongMessage pong = payload::asReadOnlyBuffer;
            ((MessageHandler.Whole<PongMessage>) registered.handler()).onMessage(pong);
        }
    }
}
