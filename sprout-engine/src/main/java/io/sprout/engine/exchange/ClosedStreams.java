package io.sprout.engine.exchange;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last streams an HTTP/2 connection closed, and how: a frame on a stream we reset is ignored (it may have been
 * in flight), on a stream closed otherwise it is a STREAM_CLOSED error, and on an id never used it is a
 * PROTOCOL_ERROR (RFC 9113 §5.1, §5.1.1). Older streams are forgotten: the RFC lets an endpoint treat frames on
 * them as errors. Thread-safe: workers close streams, the loop asks.
 */
final class ClosedStreams {

    private static final int REMEMBERED = 128;

    private final Map<Integer, Boolean> closed = new LinkedHashMap<>(REMEMBERED * 2, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, Boolean> eldest) {
            return size() > REMEMBERED;
        }
    };

    synchronized void closed(int streamId, boolean resetByUs) {
        closed.put(streamId, resetByUs);
    }

    /** Whether we reset the stream; {@code null} when it is not remembered as closed (never used, or forgotten). */
    synchronized Boolean resetByUs(int streamId) {
        return closed.get(streamId);
    }
}
