/**
 * Sprout's HTTP/1.1 engine. It exports three packages:
 * <ul>
 *   <li>{@code io.sprout.engine}, the API: the server's interface and lifecycle, the validated configuration
 *       records, the handler SPI, WebSocket's interfaces and configuration, the statistics and the exceptions a
 *       caller may need to tell apart. It uses no other engine package;</li>
 *   <li>{@code io.sprout.engine.server}, the front door: {@code Sprout} makes a server (and headers for test
 *       doubles), assembling the layers behind it;</li>
 *   <li>{@code io.sprout.engine.websocket}, for its one public type {@code WebSocketUpgrade}, which turns a
 *       request into a WebSocket.</li>
 * </ul>
 * The codec, the exchange, the buffers, the executors, TLS, the transport and the WebSocket implementation are
 * free to change. Nothing beyond {@code java.base} is required.
 */
module io.sprout.engine {
    exports io.sprout.engine;
    exports io.sprout.engine.server;
    exports io.sprout.engine.websocket;
}
