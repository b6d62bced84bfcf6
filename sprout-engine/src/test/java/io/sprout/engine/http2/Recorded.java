package io.sprout.engine.http2;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Runs client bytes through a {@link FrameParser} and records its events as text, so that runs over different
 * feedings of the same bytes compare equal: consecutive {@code data}/{@code headerBlock} pieces are merged into one
 * event, and a connection error ends the list as {@code connectionError:<code>}. Checks the listener contract as it
 * goes: no empty piece, pieces only within their frame.
 */
final class Recorded implements FrameListener {

    final List<String> events = new ArrayList<>();
    private String open;

    /** A run over pieces, for {@code Feedings.sameForEveryFeeding}. */
    static Function<List<ByteBuffer>, List<String>> run(int maxFrameSize, boolean expectPreface) {
        return pieces -> {
            Recorded recorded = new Recorded();
            FrameParser parser = new FrameParser(maxFrameSize, expectPreface, recorded);
            try {
                for (ByteBuffer piece : pieces) {
                    parser.parse(piece);
                    if (piece.hasRemaining()) {
                        throw new AssertionError("parse left " + piece.remaining() + " bytes unread");
                    }
                }
            } catch (Http2Exception error) {
                if (!error.isConnectionError()) {
                    throw new AssertionError("a stream error thrown instead of reported", error);
                }
                recorded.events.add("connectionError:" + error.code());
            }
            return recorded.events;
        };
    }

    static Function<List<ByteBuffer>, List<String>> run() {
        return run(FrameParser.DEFAULT_MAX_FRAME_SIZE, true);
    }

    @Override
    public void dataStart(int streamId, int flowControlled, boolean endStream) {
        begin("data:" + streamId);
        events.add("dataStart:" + streamId + ":" + flowControlled + (endStream ? ":endStream" : ""));
    }

    @Override
    public void data(int streamId, ByteBuffer bytes) {
        piece("data:" + streamId, bytes);
    }

    @Override
    public void dataEnd(int streamId, boolean endStream) {
        end("data:" + streamId);
        events.add("dataEnd:" + streamId + (endStream ? ":endStream" : ""));
    }

    @Override
    public void headersStart(int streamId, boolean endStream, boolean endHeaders) {
        begin("block:" + streamId);
        events.add("headers:" + streamId + (endStream ? ":endStream" : "") + (endHeaders ? ":endHeaders" : ""));
    }

    @Override
    public void continuationStart(int streamId, boolean endHeaders) {
        begin("block:" + streamId);
        events.add("continuation:" + streamId + (endHeaders ? ":endHeaders" : ""));
    }

    @Override
    public void headerBlock(int streamId, ByteBuffer fragment) {
        piece("block:" + streamId, fragment);
    }

    @Override
    public void headerBlockEnd(int streamId, boolean endHeaders) {
        end("block:" + streamId);
        events.add("blockEnd:" + streamId + (endHeaders ? ":endHeaders" : ""));
    }

    @Override
    public void priority(int streamId) {
        events.add("priority:" + streamId);
    }

    @Override
    public void rstStream(int streamId, int errorCode) {
        events.add("rst:" + streamId + ":" + Integer.toUnsignedString(errorCode));
    }

    @Override
    public void settings(int[] ids, long[] values) {
        StringBuilder text = new StringBuilder("settings:");
        for (int i = 0; i < ids.length; i++) {
            text.append(i == 0 ? "" : ",").append(ids[i]).append('=').append(values[i]);
        }
        events.add(text.toString());
    }

    @Override
    public void settingsAck() {
        events.add("settingsAck");
    }

    @Override
    public void ping(boolean ack, long opaqueData) {
        events.add("ping:" + (ack ? "ack:" : "") + Long.toHexString(opaqueData));
    }

    @Override
    public void goAway(int lastStreamId, int errorCode, ByteBuffer debugData) {
        events.add("goAway:" + lastStreamId + ":" + Integer.toUnsignedString(errorCode) + ":" + text(debugData));
    }

    @Override
    public void windowUpdate(int streamId, int increment) {
        events.add("windowUpdate:" + streamId + ":" + increment);
    }

    @Override
    public void unknownFrame(int type, int streamId, int length) {
        events.add("unknown:0x" + Integer.toHexString(type) + ":" + streamId + ":" + length);
    }

    @Override
    public void streamError(Http2Exception error) {
        if (error.isConnectionError()) {
            throw new AssertionError("a connection error reported as a stream error", error);
        }
        events.add("streamError:" + error.streamId() + ":" + error.code());
    }

    private void begin(String frame) {
        if (open != null) {
            throw new AssertionError(frame + " begins inside " + open);
        }
        open = frame;
    }

    private void piece(String frame, ByteBuffer bytes) {
        if (!frame.equals(open)) {
            throw new AssertionError(frame + " bytes outside their frame (open: " + open + ")");
        }
        if (!bytes.hasRemaining()) {
            throw new AssertionError("an empty piece of " + frame);
        }
        String last = events.getLast();
        String text = text(bytes);
        if (last.startsWith(frame + ":")) {
            events.set(events.size() - 1, last + text);
        } else {
            events.add(frame + ":" + text);
        }
    }

    private void end(String frame) {
        if (!frame.equals(open)) {
            throw new AssertionError(frame + " ends, but " + open + " is open");
        }
        open = null;
    }

    private static String text(ByteBuffer bytes) {
        return StandardCharsets.ISO_8859_1.decode(bytes.duplicate()).toString();
    }

    @Override
    public String toString() {
        return Arrays.toString(events.toArray());
    }
}
