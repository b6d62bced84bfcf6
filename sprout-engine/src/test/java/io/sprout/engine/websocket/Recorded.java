package io.sprout.engine.websocket;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Runs client bytes through a {@link FrameParser} and a {@link MessageAssembler} and records what came out, as
 * text: {@code text:…}, {@code binary:<length>}, {@code ping:…}, {@code pong:…}, {@code close:<code>:<reason>},
 * parts as {@code textPart:…} and {@code binaryPart:<length>} (with {@code :last} on the final one), and last
 * {@code fail:<code>} when the connection must be failed. Equal results for equal events, so the same
 * bytes fed in different pieces can be compared.
 */
final class Recorded {

    private Recorded() {
    }

    /** A run over pieces, for {@code Feedings.sameForEveryFeeding}. */
    static Function<List<ByteBuffer>, List<String>> run(long maxFrame, int maxMessage, boolean deflate,
            boolean clientNoContextTakeover) {
        return run(maxFrame, maxMessage, deflate, clientNoContextTakeover, false);
    }

    /** As above; with {@code inParts}, every message is taken in parts. */
    static Function<List<ByteBuffer>, List<String>> run(long maxFrame, int maxMessage, boolean deflate,
            boolean clientNoContextTakeover, boolean inParts) {
        return pieces -> {
            List<String> events = new ArrayList<>();
            try (MessageInflater inflater = deflate ? new MessageInflater(clientNoContextTakeover) : null) {
                FrameParser parser = new FrameParser(new MessageAssembler(recorder(events, inParts), maxMessage,
                        maxMessage, inflater), maxFrame, deflate);
                for (ByteBuffer piece : pieces) {
                    // The parser unmasks in place; the feedings share their bytes, so each run parses a copy.
                    parser.parse(ByteBuffer.allocate(piece.remaining()).put(piece.duplicate()).flip());
                }
            } catch (CloseException failure) {
                events.add("fail:" + failure.code());
            }
            return events;
        };
    }

    static Function<List<ByteBuffer>, List<String>> run() {
        return run(1 << 20, 1 << 20, false, false);
    }

    static MessageListener recorder(List<String> events, boolean inParts) {
        return new MessageListener() {
            @Override
            public boolean inParts(Opcode type) {
                return inParts;
            }

            @Override
            public void textPart(String part, boolean last) {
                events.add("textPart:" + part + (last ? ":last" : ""));
            }

            @Override
            public void binaryPart(ByteBuffer part, boolean last) {
                events.add("binaryPart:" + part.remaining() + (last ? ":last" : ""));
            }

            @Override
            public void text(ByteBuffer utf8) {
                events.add("text:" + StandardCharsets.UTF_8.decode(utf8));
            }

            @Override
            public void binary(ByteBuffer message) {
                events.add("binary:" + message.remaining());
            }

            @Override
            public void ping(ByteBuffer payload) {
                events.add("ping:" + StandardCharsets.UTF_8.decode(payload));
            }

            @Override
            public void pong(ByteBuffer payload) {
                events.add("pong:" + StandardCharsets.UTF_8.decode(payload));
            }

            @Override
            public void closeFrame(int code, String reason) {
                events.add("close:" + code + ":" + reason);
            }
        };
    }
}
