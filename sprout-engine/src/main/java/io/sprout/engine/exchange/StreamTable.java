package io.sprout.engine.exchange;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * An HTTP/2 connection's streams: the open ones by id, the last closed ones and how they closed, and the highest id
 * taken (every lower id is closed or in use, RFC 9113 §5.1.1). The event loop opens streams and reads the ids;
 * workers forget streams when their exchanges end.
 */
final class StreamTable {

    private final Map<Integer, Http2Stream> open = new ConcurrentHashMap<>();
    private final ClosedStreams closed = new ClosedStreams();
    private final LongAdder active;
    private int lastId;

    /** @param active the server-wide gauge of open streams */
    StreamTable(LongAdder active) {
        this.active = active;
    }

    /** The open stream {@code id}; {@code null} when it is closed or was never opened. */
    Http2Stream get(int id) {
        return open.get(id);
    }

    /** Whether {@code id} lies beyond every id taken: a frame other than HEADERS on it is a protocol error. */
    boolean idle(int id) {
        return id > lastId;
    }

    int lastId() {
        return lastId;
    }

    /** Loop: a new stream's HEADERS take its id, whether the stream opens or is refused. */
    void take(int id) {
        lastId = id;
    }

    /** Loop: a stream refused before it opened; later frames on it are answered as on a stream we reset. */
    void refused(int id) {
        lastId = id;
        closed.closed(id, true);
    }

    void add(Http2Stream stream) {
        open.put(stream.id, stream);
        active.increment();
    }

    /** Forgets the stream, remembering how it closed. */
    void remove(Http2Stream stream) {
        closed.closed(stream.id, stream.resetByUs());
        if (open.remove(stream.id) != null) {
            active.decrement();
        }
    }

    /**
     * Whether we reset the stream that a late frame names (open but reset, or closed); {@code null} when it is
     * neither open nor remembered as closed.
     */
    Boolean resetByUs(int id) {
        Http2Stream stream = open.get(id);
        return stream != null ? Boolean.valueOf(stream.resetByUs()) : closed.resetByUs(id);
    }

    /**
     * Streams that count against the concurrency limit: all but those closed both ways whose worker has yet to
     * forget them (the client already sees them closed). A stream the client reset counts until its exchange ends,
     * so resetting cannot make the server run more than the limit's handlers at once (Rapid Reset).
     */
    int concurrent() {
        int count = 0;
        for (Http2Stream stream : open.values()) {
            if (!stream.closedBothWays()) {
                count++;
            }
        }
        return count;
    }

    boolean isEmpty() {
        return open.isEmpty();
    }

    Collection<Http2Stream> all() {
        return open.values();
    }
}
