package io.sprout.sample;

/**
 * The open WebSocket sessions of {@code /ws/echo} and {@code /ws/broadcast}, as the benchmark endpoints see them.
 * Each web stack has its own implementation ({@code SessionRegistry} in {@code src/servlet/java} over Spring
 * WebSocket, in {@code src/reactive/java} over Spring WebFlux), so {@link WebSocketBenchmarkController} is shared.
 */
public interface WebSocketSessions {

    /** Sessions open right now on both endpoints. Never blocks. */
    int open();

    /** Sessions open right now on {@code /ws/broadcast}, the recipients of {@link #broadcast}. Never blocks. */
    int subscribers();

    /**
     * Sends {@code messages} text messages of {@code size} characters each to every session open on
     * {@code /ws/broadcast}, stamped with the time this call started (see {@link BroadcastMessage}). Called on a
     * request thread; may block while the stack hands the messages over (servlet: until each send is written).
     */
    BroadcastResult broadcast(int messages, int size);

}
