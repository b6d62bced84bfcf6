package io.sprout.engine.http2;

import java.nio.ByteBuffer;

/**
 * A resumable parser of the frames a client sends (RFC 9113 §4, §6): feed it bytes as they arrive, in pieces of any
 * size, and it reports each frame to its {@link FrameListener}. DATA and header-block bytes are handed on as they
 * arrive, never buffered, so a frame of the maximum size passes through an input buffer of that size; the parser
 * holds at most nine bytes of a header or control payload, the settings of one SETTINGS frame, and the first 1,024
 * bytes of a GOAWAY's debug data.
 *
 * <pre>
 *   PREFACE (24) ─▶ HEADER (9) ─┬─▶ [PAD_LENGTH (1)] ─▶ [PRIORITY_FIELDS (5)] ─▶ CONTENT ─▶ [SKIP] ─┐
 *                               ├─▶ FIELDS (4, 5, 6 per setting, 8) ─▶ [DEBUG_DATA (GOAWAY)] ─────┤
 *                               └─▶ SKIP (unknown type, PRIORITY of a wrong length) ──────────────┴─▶ HEADER
 * </pre>
 *
 * <p>Checks made: the preface, and SETTINGS as the first frame after it (§3.4); the maximum frame size (§4.2); the
 * stream, length and flags each type requires (see {@link FrameRules}); padding that exceeds the payload (§6.1,
 * §6.2); a header block interrupted by any frame but its CONTINUATION (§6.10); every received setting
 * ({@link Setting#check}); PUSH_PROMISE, which a client never sends (§8.4). Unknown frame types and flags are
 * ignored (§5.5), and so are reserved bits and padding's content. Stream states, flow control and HPACK are the
 * session's.
 *
 * <p>A connection error is thrown from {@link #parse} as an {@link Http2Exception}, as soon as the byte that shows
 * it is read, leaving the rest of the input unread; stream errors go to {@link FrameListener#streamError} and the
 * parser carries on. After a connection error, or any exception a listener throws, the parser is dead: every later
 * {@code parse} throws the same {@code Http2Exception} again, or an {@code IllegalStateException} caused by the
 * listener's exception.
 *
 * <p>Public because the session owns one per connection and feeds it what it reads. Used by one thread at a time.
 */
public final class FrameParser {

    public static final int DEFAULT_MAX_FRAME_SIZE = 16_384;

    private static final int SETTING_LENGTH = 6;
    private static final int MAX_DEBUG_DATA = 1_024;

    private enum State { PREFACE, HEADER, PAD_LENGTH, PRIORITY_FIELDS, CONTENT, FIELDS, DEBUG_DATA, SKIP }

    private final int maxFrameSize;
    private final FrameListener listener;
    /** The frame header, or the fixed part of a control frame's payload; read until {@link #fill} completes it. */
    private final byte[] field = new byte[FrameHeader.LENGTH];
    private final SettingsCollector settings = new SettingsCollector();
    private State state;
    private int fieldLength;
    private int fieldFilled;
    private int prefaceRead;
    private boolean settingsFirst;
    private FrameHeader header;
    /** The payload bytes of the current frame not read yet. */
    private int remaining;
    /** The padding at the end of the current DATA or HEADERS frame. */
    private int padding;
    /** The stream whose header block waits for a CONTINUATION frame, or 0. */
    private int openBlock;
    private byte[] debugData;
    private int debugLength;
    private RuntimeException failure;

    /**
     * @param maxFrameSize the largest payload accepted, from 16,384 to 2^24-1: the {@code SETTINGS_MAX_FRAME_SIZE}
     *     this endpoint advertises
     * @param expectPreface whether the client preface comes first; then a mismatch is a connection error
     *     PROTOCOL_ERROR, and so is a first frame other than SETTINGS without ACK
     */
    public FrameParser(int maxFrameSize, boolean expectPreface, FrameListener listener) {
        if (maxFrameSize < Setting.MIN_MAX_FRAME_SIZE || maxFrameSize > Setting.MAX_MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("maxFrameSize must be from 16384 to 16777215, not " + maxFrameSize);
        }
        this.maxFrameSize = maxFrameSize;
        this.listener = listener;
        if (expectPreface) {
            state = State.PREFACE;
        } else {
            expect(State.HEADER, FrameHeader.LENGTH);
        }
    }

    /**
     * Whether {@code buffered} (position to limit, which are left alone) holds the client preface: -1 when the bytes
     * differ from it, 0 when they are a proper prefix of it (more must arrive to decide), 1 when they begin with it.
     * For telling HTTP/2 with prior knowledge from HTTP/1.1 on a plaintext port.
     */
    public static int prefaceMatch(ByteBuffer buffered) {
        return Preface.match(buffered);
    }

    /**
     * Consumes every remaining byte of {@code in}, calling the listener for what they complete.
     *
     * @throws Http2Exception a connection error, with the input left at the byte after the one that showed it
     */
    public void parse(ByteBuffer in) {
        if (failure != null) {
            throw failure instanceof Http2Exception error ? error
                    : new IllegalStateException("The parser failed earlier", failure);
        }
        try {
            while (in.hasRemaining()) {
                step(in);
            }
        } catch (RuntimeException e) {
            failure = e;
            throw e;
        }
    }

    /**
     * Whether the parser is within the preface or a frame: bytes have been read that did not complete it. False
     * between frames, including between a HEADERS frame and its CONTINUATION.
     */
    public boolean midFrame() {
        return switch (state) {
            case PREFACE -> prefaceRead > 0;
            case HEADER -> fieldFilled > 0;
            default -> true;
        };
    }

    private void step(ByteBuffer in) {
        switch (state) {
            case PREFACE -> preface(in);
            case HEADER -> {
                if (fill(in)) {
                    header();
                }
            }
            case PAD_LENGTH -> {
                if (fill(in)) {
                    padLength();
                }
            }
            case PRIORITY_FIELDS -> {
                if (fill(in)) {
                    priorityFields();
                }
            }
            case CONTENT -> content(in);
            case FIELDS -> {
                if (fill(in)) {
                    fields();
                }
            }
            case DEBUG_DATA -> debugData(in);
            case SKIP -> skip(in);
        }
    }

    private void preface(ByteBuffer in) {
        while (in.hasRemaining() && prefaceRead < Preface.LENGTH) {
            if (!Preface.matches(prefaceRead, in.get())) {
                throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR,
                        "Not the HTTP/2 client preface (byte " + prefaceRead + " differs)");
            }
            prefaceRead++;
        }
        if (prefaceRead == Preface.LENGTH) {
            settingsFirst = true;
            expect(State.HEADER, FrameHeader.LENGTH);
        }
    }

    private void expect(State next, int bytes) {
        state = next;
        fieldLength = bytes;
        fieldFilled = 0;
    }

    /** Copies bytes of the current field; returns whether it is complete. */
    private boolean fill(ByteBuffer in) {
        int count = Math.min(fieldLength - fieldFilled, in.remaining());
        in.get(field, fieldFilled, count);
        fieldFilled += count;
        return fieldFilled == fieldLength;
    }

    private void header() {
        FrameHeader read = FrameHeader.read(field);
        FrameRules.check(read, maxFrameSize, openBlock, settingsFirst);
        settingsFirst = false;
        header = read;
        remaining = read.length();
        padding = 0;
        switch (read.type()) {
            case FrameType.DATA, FrameType.HEADERS -> {
                if (read.has(Flags.PADDED)) {
                    expect(State.PAD_LENGTH, 1);
                } else {
                    paddingKnown();
                }
            }
            case FrameType.CONTINUATION -> startContent();
            case FrameType.PRIORITY, FrameType.RST_STREAM, FrameType.PING, FrameType.GOAWAY,
                    FrameType.WINDOW_UPDATE -> {
                if (read.type() == FrameType.PRIORITY && remaining != ControlFrames.PRIORITY_LENGTH) {
                    skipRest(); // a stream error, reported once the frame is consumed
                } else {
                    // Exactly 4, 5 or 8 bytes (FrameRules checked), or a GOAWAY's first 8.
                    expect(State.FIELDS, Math.min(remaining, 8));
                }
            }
            case FrameType.SETTINGS -> nextSetting();
            default -> skipRest();
        }
    }

    private void padLength() {
        padding = field[0] & 0xFF;
        remaining--;
        paddingKnown();
    }

    private void paddingKnown() {
        int priorityLength = header.type() == FrameType.HEADERS && header.has(Flags.PRIORITY)
                ? ControlFrames.PRIORITY_LENGTH : 0;
        if (padding > remaining - priorityLength) {
            throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "A " + header + " has " + padding
                    + " bytes of padding, more than its payload holds");
        }
        if (priorityLength > 0) {
            expect(State.PRIORITY_FIELDS, ControlFrames.PRIORITY_LENGTH);
        } else {
            startContent();
        }
    }

    private void priorityFields() {
        remaining -= ControlFrames.PRIORITY_LENGTH;
        if (ControlFrames.dependsOnItself(header, field)) {
            // Reported before headersStart, so the session never starts the stream; the block follows for HPACK.
            listener.streamError(ControlFrames.dependsOnItself(header.streamId()));
        }
        startContent();
    }

    private void startContent() {
        int streamId = header.streamId();
        boolean endHeaders = header.has(Flags.END_HEADERS);
        switch (header.type()) {
            case FrameType.DATA -> listener.dataStart(streamId, header.length(), header.has(Flags.END_STREAM));
            case FrameType.HEADERS -> {
                openBlock = endHeaders ? 0 : streamId;
                listener.headersStart(streamId, header.has(Flags.END_STREAM), endHeaders);
            }
            default -> {
                openBlock = endHeaders ? 0 : streamId;
                listener.continuationStart(streamId, endHeaders);
            }
        }
        state = State.CONTENT;
        if (remaining == padding) {
            skipRest();
        }
    }

    private void content(ByteBuffer in) {
        int count = Math.min(remaining - padding, in.remaining());
        int start = in.position();
        in.position(start + count);
        remaining -= count;
        ByteBuffer bytes = in.slice(start, count);
        if (header.type() == FrameType.DATA) {
            listener.data(header.streamId(), bytes);
        } else {
            listener.headerBlock(header.streamId(), bytes);
        }
        if (remaining == padding) {
            skipRest();
        }
    }

    private void fields() {
        remaining -= fieldLength;
        switch (header.type()) {
            case FrameType.SETTINGS -> {
                int id = (field[0] & 0xFF) << 8 | field[1] & 0xFF;
                long value = Bytes.int32(field, 2) & 0xFFFF_FFFFL;
                Setting.check(id, value);
                settings.add(id, value);
                nextSetting();
            }
            case FrameType.GOAWAY -> {
                debugData = new byte[Math.min(remaining, MAX_DEBUG_DATA)];
                debugLength = 0;
                state = State.DEBUG_DATA;
                if (remaining == 0) {
                    endOfFrame();
                }
            }
            default -> endOfFrame();
        }
    }

    private void nextSetting() {
        if (remaining == 0) {
            endOfFrame();
        } else {
            expect(State.FIELDS, SETTING_LENGTH);
        }
    }

    private void debugData(ByteBuffer in) {
        int count = Math.min(remaining, in.remaining());
        int kept = Math.min(count, debugData.length - debugLength);
        in.get(in.position(), debugData, debugLength, kept);
        in.position(in.position() + count);
        debugLength += kept;
        remaining -= count;
        if (remaining == 0) {
            endOfFrame();
        }
    }

    /** Skips the rest of the payload: padding, or a frame that is ignored. */
    private void skipRest() {
        if (remaining == 0) {
            endOfFrame();
        } else {
            state = State.SKIP;
        }
    }

    private void skip(ByteBuffer in) {
        int count = Math.min(remaining, in.remaining());
        in.position(in.position() + count);
        remaining -= count;
        if (remaining == 0) {
            endOfFrame();
        }
    }

    /** The whole payload is read: reports what the frame was, from {@link #field} for a control frame. */
    private void endOfFrame() {
        expect(State.HEADER, FrameHeader.LENGTH);
        switch (header.type()) {
            case FrameType.DATA -> listener.dataEnd(header.streamId(), header.has(Flags.END_STREAM));
            case FrameType.HEADERS, FrameType.CONTINUATION ->
                    listener.headerBlockEnd(header.streamId(), header.has(Flags.END_HEADERS));
            case FrameType.SETTINGS -> settingsEnd();
            case FrameType.GOAWAY -> goAwayEnd();
            case FrameType.PRIORITY, FrameType.RST_STREAM, FrameType.PING, FrameType.WINDOW_UPDATE ->
                    ControlFrames.deliver(header, field, listener);
            default -> listener.unknownFrame(header.type(), header.streamId(), header.length());
        }
    }

    private void settingsEnd() {
        if (header.has(Flags.ACK)) {
            listener.settingsAck();
            return;
        }
        int[] ids = settings.ids();
        long[] values = settings.values();
        settings.clear();
        listener.settings(ids, values);
    }

    private void goAwayEnd() {
        ByteBuffer debug = ByteBuffer.wrap(debugData, 0, debugLength);
        debugData = null;
        listener.goAway(Bytes.int31(field, 0), Bytes.int32(field, 4), debug);
    }
}
