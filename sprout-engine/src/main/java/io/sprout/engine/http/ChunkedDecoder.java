package io.sprout.engine.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A strict, resumable decoder of the chunked transfer coding (RFC 9112 §7.1). It turns framed bytes into body
 * bytes, in whatever pieces they arrive.
 *
 * <pre>
 *   SIZE ──digit──▶ SIZE ──';'──▶ EXTENSION ──CR──▶ SIZE_LF ──LF──▶ DATA (size &gt; 0) or TRAILER (size 0)
 *   DATA ──size bytes──▶ DATA_CR ──CR──▶ DATA_LF ──LF──▶ SIZE
 *   TRAILER ──field line CRLF──▶ TRAILER ──empty line CRLF──▶ DONE
 * </pre>
 *
 * Chunk sizes are hex digits only (no sign, no whitespace, at most 15 digits); a bare CR or LF anywhere, chunk data
 * not followed by CRLF, an over-long size line or trailer section, or a trailer line without a colon throw a 400
 * {@link HttpException}. Extensions are checked for control bytes and otherwise ignored; trailers are kept
 * (see {@link #trailers()}) but never change framing. Belongs to one request; not thread-safe.
 *
 * <p>Public because exchange's {@code Http1RequestWire} decodes chunked request bodies with it: the codec holds no
 * socket, the exchange feeds it.
 */
public final class ChunkedDecoder {

    private enum State { SIZE, EXTENSION, SIZE_LF, DATA, DATA_CR, DATA_LF, TRAILER, TRAILER_LF, DONE }

    private static final int MAX_SIZE_DIGITS = 15;

    private final ParserLimits limits;
    private State state = State.SIZE;
    private long remaining;
    private int sizeDigits;
    private int lineLength;
    private int trailerBytes;
    private StringBuilder trailerLine;
    private final HeaderFields trailers = new HeaderFields(0);

    public ChunkedDecoder(ParserLimits limits) {
        this.limits = limits;
    }

    /**
     * Decodes framing from {@code in} and copies body bytes into {@code dst[offset, offset + length)}.
     *
     * @return body bytes copied (0 when {@code in} ran out first), or -1 once the last chunk and trailers are read
     */
    public int decode(ByteBuffer in, byte[] dst, int offset, int length) {
        while (in.hasRemaining() || state == State.DONE) {
            switch (state) {
                case DATA -> {
                    int count = (int) Math.min(remaining, Math.min(length, in.remaining()));
                    if (count == 0) {
                        return 0;
                    }
                    in.get(dst, offset, count);
                    remaining -= count;
                    if (remaining == 0) {
                        state = State.DATA_CR;
                    }
                    return count;
                }
                case DONE -> {
                    return -1;
                }
                default -> framingByte(in.get());
            }
        }
        return 0;
    }

    /** Whether the last chunk and the trailer section have been read. */
    public boolean done() {
        return state == State.DONE;
    }

    /** The trailer fields; complete once {@link #done()}. */
    public HeaderFields trailers() {
        return trailers;
    }

    private void framingByte(byte b) {
        switch (state) {
            case SIZE -> sizeByte(b);
            case EXTENSION -> extensionByte(b);
            case SIZE_LF -> {
                expect(b, '\n');
                lineLength = 0;
                state = remaining == 0 ? State.TRAILER : State.DATA;
            }
            case DATA_CR -> {
                expect(b, '\r');
                state = State.DATA_LF;
            }
            case DATA_LF -> {
                expect(b, '\n');
                sizeDigits = 0;
                state = State.SIZE;
            }
            case TRAILER -> trailerByte(b);
            case TRAILER_LF -> {
                expect(b, '\n');
                endTrailerLine();
            }
            default -> throw new IllegalStateException(state.name());
        }
    }

    private void sizeByte(byte b) {
        countLine();
        int digit = Character.digit(b, 16);
        if (digit >= 0) {
            if (++sizeDigits > MAX_SIZE_DIGITS) {
                throw HttpException.badRequest("Chunk size too large");
            }
            remaining = remaining << 4 | digit;
        } else if (sizeDigits == 0) {
            throw HttpException.badRequest("Invalid chunk size");
        } else if (b == ';') {
            state = State.EXTENSION;
        } else if (b == '\r') {
            state = State.SIZE_LF;
        } else {
            throw HttpException.badRequest("Invalid chunk size");
        }
    }

    private void extensionByte(byte b) {
        countLine();
        if (b == '\r') {
            state = State.SIZE_LF;
        } else if (!Tokens.isFieldValueByte(b)) {
            throw HttpException.badRequest("Invalid character in chunk extension");
        }
    }

    private void trailerByte(byte b) {
        if (++trailerBytes > limits.maxTrailerSize()) {
            throw HttpException.badRequest("Trailer section larger than " + limits.maxTrailerSize() + " bytes");
        }
        if (b == '\r') {
            state = State.TRAILER_LF;
        } else if (b == '\n') {
            throw HttpException.badRequest("LF without CR in trailers");
        } else {
            if (trailerLine == null) {
                trailerLine = new StringBuilder();
            }
            trailerLine.append((char) (b & 0xff));
        }
    }

    private void endTrailerLine() {
        if (trailerLine == null || trailerLine.isEmpty()) {
            state = State.DONE;
            return;
        }
        byte[] lineBytes = trailerLine.toString().getBytes(StandardCharsets.ISO_8859_1);
        trailerLine.setLength(0);
        int colon = 0;
        while (colon < lineBytes.length && lineBytes[colon] != ':') {
            if (!Tokens.isTokenChar(lineBytes[colon])) {
                throw HttpException.badRequest("Invalid trailer field name");
            }
            colon++;
        }
        if (colon == 0 || colon == lineBytes.length) {
            throw HttpException.badRequest("Trailer line without a name and colon");
        }
        String value = new String(lineBytes, colon + 1, lineBytes.length - colon - 1, StandardCharsets.ISO_8859_1);
        for (int i = 0; i < value.length(); i++) {
            if (!Tokens.isFieldValueByte(value.charAt(i))) {
                throw HttpException.badRequest("Invalid character in trailer value");
            }
        }
        trailers.add(HeaderNameCache.of(lineBytes, 0, colon), value.strip());
        state = State.TRAILER;
    }

    private void countLine() {
        if (++lineLength > limits.maxChunkLineLength()) {
            throw HttpException.badRequest("Chunk line longer than " + limits.maxChunkLineLength() + " bytes");
        }
    }

    private static void expect(byte actual, char expected) {
        if (actual != expected) {
            throw HttpException.badRequest(expected == '\n' ? "CR not followed by LF" : "Chunk data not followed by CRLF");
        }
    }
}
