/**
 * Sprout's HTTP/1.1 engine. It exports only its API package, {@code io.sprout.engine}: the server and its
 * lifecycle, the validated configuration records, the handler SPI and the exceptions a caller may need to tell
 * apart. The codec, the exchange, the buffers, the executors and the transport are implementation, free to change.
 * Nothing beyond {@code java.base} is required.
 */
module io.sprout.engine {
    exports io.sprout.engine;
}
