package io.sprout.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Feeds raw bytes to a codec (HTTP or WebSocket) run in the ways a socket may deliver them, and asserts that every way gives the same
 * result: whole, one byte at a time, split in two at every index, and whole in a direct buffer.
 *
 * <p>Heap pieces are slices ({@code arrayOffset() > 0}) or wrapped ranges ({@code position() > 0}), so both kinds of
 * offset arithmetic in the codec are exercised.
 */
public final class Feedings {

    private Feedings() {
    }

    /** The request text as bytes, one byte per char (ISO-8859-1), so {@code \u0080}–{@code \u00ff} are obs-text. */
    static byte[] bytes(String raw) {
        return raw.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Runs {@code run} on every feeding of {@code raw}; returns the common result. */
    static <R> R sameForEveryFeeding(String raw, Function<List<ByteBuffer>, R> run) {
        return sameForEveryFeeding(bytes(raw), run);
    }

    public static <R> R sameForEveryFeeding(byte[] raw, Function<List<ByteBuffer>, R> run) {
        R whole = run.apply(List.of(slice(raw, 0, raw.length)));
        check(run.apply(oneByteAtATime(raw)), whole, "fed one byte at a time");
        for (int at = 0; at <= raw.length; at++) {
            R split = run.apply(List.of(slice(raw, 0, at), slice(raw, at, raw.length - at)));
            if (!Objects.equals(split, whole)) {
                check(split, whole, "split at index " + at);
            }
        }
        check(run.apply(List.of(direct(raw))), whole, "fed whole in a direct buffer");
        return whole;
    }

    private static <R> void check(R actual, R whole, String feeding) {
        assertThat(actual).as("result when %s (fed whole: %s)", feeding, whole).isEqualTo(whole);
    }

    private static List<ByteBuffer> oneByteAtATime(byte[] raw) {
        List<ByteBuffer> pieces = new ArrayList<>(raw.length);
        for (int i = 0; i < raw.length; i++) {
            pieces.add(ByteBuffer.wrap(raw, i, 1));
        }
        return pieces;
    }

    private static ByteBuffer slice(byte[] raw, int from, int length) {
        return ByteBuffer.wrap(raw).slice(from, length);
    }

    private static ByteBuffer direct(byte[] raw) {
        return ByteBuffer.allocateDirect(Math.max(1, raw.length)).put(raw).flip();
    }

    /** What is left, as text: the rest of the current piece and every later piece. */
    static String leftover(ByteBuffer current, List<ByteBuffer> later) {
        StringBuilder text = new StringBuilder();
        appendRemaining(text, current);
        for (ByteBuffer piece : later) {
            appendRemaining(text, piece);
        }
        return text.toString();
    }

    private static void appendRemaining(StringBuilder text, ByteBuffer piece) {
        ByteBuffer view = piece.duplicate();
        while (view.hasRemaining()) {
            text.append((char) (view.get() & 0xff));
        }
    }
}
