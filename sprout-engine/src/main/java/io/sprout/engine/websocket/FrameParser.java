package io.sprout.engine.websocket;

import java.nio.ByteBuffer;

/**
 * A resumable parser of client frames: feed it bytes as they arrive, in pieces of any size, and it reports each
 * header, the unmasked payload in the pieces it got, and each frame's end. Frame-level rules are checked as soon as
 * the bytes that break them arrive (RFC 6455 §5.2, §5.5): reserved opcodes, RSV bits no extension negotiated,
 * fragmented or oversized (more than 125 bytes) control frames, unmasked client frames, a 64-bit length with its
 * top bit set, and frames longer than the configured maximum (1009). Rules about the sequence of frames belong to
 * the {@link MessageAssembler}.
 *
 * <pre>
 *   HEAD (2 bytes) ──▶ LENGTH (0, 2 or 8) ──▶ MASK (4) ──▶ PAYLOAD (length) ──▶ HEAD …
 * </pre>
 *
 * Used by one thread at a time.
 */
final class FrameParser {

    /** What the parser reports, in order: a header, its payload in zero or more pieces, the frame's end. */
    interface Listener {

        void frameStart(FrameHeader header) throws CloseException;

        /** Unmasked payload bytes (a view of the parsed buffer); only valid during the call. */
        void payload(ByteBuffer bytes) throws CloseException;

        void frameEnd() throws CloseException;
    }

    private enum State { HEAD, LENGTH, MASK, PAYLOAD }

    private static final int MAX_CONTROL_PAYLOAD = 125;

    private final Listener listener;
    private final long maxFrameLength;
    private final boolean compressionNegotiated;
    private final byte[] field = new byte[8];
    private final byte[] mask = new byte[4];
    private State state = State.HEAD;
    private int fieldLength;
    private int fieldFilled;
    private boolean fin;
    private boolean compressed;
    private Opcode opcode;
    private long length;
    private long payloadRead;

    /**
     * @param maxFrameLength the largest payload accepted in one frame; longer frames fail with 1009
     * @param compressionNegotiated whether {@code permessage-deflate} is on, so RSV1 may be set
     */
    FrameParser(Listener listener, long maxFrameLength, boolean compressionNegotiated) {
        this.listener = listener;
        this.maxFrameLength = maxFrameLength;
        this.compressionNegotiated = compressionNegotiated;
        expectField(2);
    }

    /**
     * Consumes every remaining byte of {@code in}, unmasking payload bytes in place (so an idle connection holds
     * no buffer of its own): the caller's bytes are changed.
     */
    void parse(ByteBuffer in) throws CloseException {
        while (in.hasRemaining() || state == State.PAYLOAD && payloadRead == length) {
            switch (state) {
                case HEAD -> {
                    if (fill(in)) {
                        head();
                    }
                }
                case LENGTH -> {
                    if (fill(in)) {
                        extendedLength();
                    }
                }
                case MASK -> {
                    if (fill(in)) {
                        System.arraycopy(field, 0, mask, 0, 4);
                        startPayload();
                    }
                }
                case PAYLOAD -> payload(in);
            }
        }
    }

    private void expectField(int bytes) {
        fieldLength = bytes;
        fieldFilled = 0;
    }

    /** Copies bytes of the current header field; returns whether it is complete. */
    private boolean fill(ByteBuffer in) {
        int count = Math.min(fieldLength - fieldFilled, in.remaining());
        in.get(field, fieldFilled, count);
        fieldFilled += count;
        return fieldFilled == fieldLength;
    }

    private void head() throws CloseException {
        int first = field[0] & 0xFF;
        int second = field[1] & 0xFF;
        fin = (first & 0x80) != 0;
        compressed = (first & 0x40) != 0;
        opcode = Opcode.of(first);
        if (opcode == null) {
            throw protocolError("Reserved opcode " + (first & 0xF));
        }
        if ((first & 0x30) != 0) {
            throw protocolError("RSV2 or RSV3 set, but no extension defines them");
        }
        if (compressed && (!compressionNegotiated || opcode.isControl())) {
            throw protocolError(opcode.isControl() ? "RSV1 set on a control frame"
                    : "RSV1 set, but permessage-deflate was not negotiated");
        }
        if (opcode.isControl() && !fin) {
            throw protocolError("A fragmented control frame");
        }
        if ((second & 0x80) == 0) {
            throw protocolError("An unmasked client frame");
        }
        int shortLength = second & 0x7F;
        if (shortLength == 126 || shortLength == 127) {
            expectField(shortLength == 126 ? 2 : 8);
            state = State.LENGTH;
            return;
        }
        lengthKnown(shortLength);
    }

    private void extendedLength() throws CloseException {
        long value = 0;
        for (int i = 0; i < fieldLength; i++) {
            value = value << 8 | field[i] & 0xFF;
        }
        if (value < 0) {
            throw protocolError("A 64-bit payload length with its most significant bit set");
        }
        lengthKnown(value);
    }

    private void lengthKnown(long value) throws CloseException {
        if (opcode.isControl() && value > MAX_CONTROL_PAYLOAD) {
            throw protocolError("A control frame of " + value + " bytes (at most 125)");
        }
        if (value > maxFrameLength) {
            throw new CloseException(CloseCodes.MESSAGE_TOO_BIG,
                    "A frame of " + value + " bytes (at most " + maxFrameLength + ")");
        }
        length = value;
        expectField(4);
        state = State.MASK;
    }

    private void startPayload() throws CloseException {
        payloadRead = 0;
        state = State.PAYLOAD;
        listener.frameStart(new FrameHeader(fin, compressed, opcode, length));
    }

    private void payload(ByteBuffer in) throws CloseException {
        if (payloadRead < length && in.hasRemaining()) {
            int count = (int) Math.min(length - payloadRead, in.remaining());
            int start = in.position();
            for (int i = 0; i < count; i++) {
                int at = start + i;
                in.put(at, (byte) (in.get(at) ^ mask[(int) (payloadRead + i & 3)]));
            }
            payloadRead += count;
            in.position(start + count);
            listener.payload(in.slice(start, count));
        }
        if (payloadRead == length) {
            state = State.HEAD;
            expectField(2);
            listener.frameEnd();
        }
    }

    private static CloseException protocolError(String reason) {
        return new CloseException(CloseCodes.PROTOCOL_ERROR, reason);
    }
}
