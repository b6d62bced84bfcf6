package io.sprout.engine.tls;

/**
 * Where a connection's handshake stands after {@link TlsChannel#handshake()}: what it waits for, or its verdict.
 *
 * <p>Public because transport ({@code LoopHandshake}, {@code HeadReader}) sets the key's interest from it: tls says
 * what it waits for, the transport's loop does the waiting.
 */
public enum HandshakeStep {
    /** It needs bytes from the client: call again once the socket is readable. */
    READ,
    /** The socket took only part of what must be sent: call again once it is writable. */
    WRITE,
    /** The engine has work to run off the event loop: {@link TlsChannel#runDelegatedTasks()}, then call again. */
    TASKS,
    /** The handshake is complete: {@link TlsChannel#details()} is set and application data may flow. */
    DONE,
    /** The client sent plaintext that looks like an HTTP request: answer it 400 in plaintext, then close. */
    PLAINTEXT_HTTP,
    /** The client sent something that is neither TLS nor HTTP (or a malformed ClientHello): close at once. */
    NOT_TLS
}
