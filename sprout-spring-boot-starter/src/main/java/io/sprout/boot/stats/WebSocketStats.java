package io.sprout.boot.stats;

import java.util.concurrent.atomic.LongAdder;

/**
 * The WebSocket sessions of one web server factory and their messages, counted by whichever WebSocket layer runs
 * on it (the Jakarta container or WebFlux's sessions) and read by the {@code sprout.websocket.*} meters, so both
 * stacks count the same things in the same place. Messages are whole messages, text or binary, not fragments nor
 * control frames. Any thread.
 */
public final class WebSocketStats {

    private final LongAdder open = new LongAdder();
    private final LongAdder messagesIn = new LongAdder();
    private final LongAdder messagesOut = new LongAdder();

    /** A session has opened: called once for it, before its first message. */
    public void opened() {
        open.increment();
    }

    /** A session counted by {@link #opened()} has closed: called once for it. */
    public void closed() {
        open.decrement();
    }

    /** A whole message has been received (of one taken in parts, its last part). */
    public void received() {
        messagesIn.increment();
    }

    /**
     * A whole message (or a fragmented message's last fragment) is being handed to the connection: counted before,
     * so a client that has the message always sees it counted.
     */
    public void sent() {
        messagesOut.increment();
    }

    /** Sessions open now. */
    public long open() {
        return open.sum();
    }

    /** Whole messages received since the factory was made. */
    public long messagesIn() {
        return messagesIn.sum();
    }

    /** Whole messages (or last fragments) sent since the factory was made. */
    public long messagesOut() {
        return messagesOut.sum();
    }
}
