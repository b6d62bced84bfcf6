/**
 * TLS as a layer between a transport's socket and the HTTP codec, which neither knows about: a
 * {@link io.sprout.engine.tls.TlsChannel} per connection reads the first record itself (plaintext on a TLS port, and
 * the SNI name that picks the certificate, {@code ClientHelloParser}), drives an {@link javax.net.ssl.SSLEngine}
 * through the handshake and then encrypts and decrypts records in pooled buffers it holds only while they hold
 * bytes. It moves bytes through a {@link java.nio.channels.ByteChannel}, so the same code serves a non-blocking
 * socket (the handshake on the event loop, in either execution mode, and the exchanges of {@code nio} mode) and a
 * blocking one (in {@code hybrid} mode, while a worker serves a request); where the engine's delegated tasks run is
 * the transport's choice. {@link io.sprout.engine.tls.ServerTls} holds one server's configuration, record pool and
 * ALPN protocols. Depends on {@code buffer} and the public API only; used by the transport and the server.
 */
package io.sprout.engine.tls;
