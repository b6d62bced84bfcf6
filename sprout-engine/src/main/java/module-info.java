/**
 * Sprout's HTTP/1.1 engine. It exports two packages:
 * <ul>
 *   <li>{@code io.sprout.engine}, the API: the server's interface and lifecycle, the validated configuration
 *       records, the handler SPI, the statistics and the exceptions a caller may need to tell apart;</li>
 *   <li>{@code io.sprout.engine.server}, the front door: {@code Sprout} makes a server (and headers for test
 *       doubles), assembling the layers behind it.</li>
 * </ul>
 * The codec, the exchange, the buffers, the executors, TLS and the transport are implementation, free to change.
 * Nothing beyond {@code java.base} is required.
 */
module io.sprout.engine {
    exports io.sprout.engine;
    exports io.sprout.engine.server;
}
