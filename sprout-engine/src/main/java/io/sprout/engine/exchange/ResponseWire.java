package io.sprout.engine.exchange;

import io.sprout.engine.http.HeaderFields;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The wire below one exchange's response: how a committed status, its fields and its body bytes become bytes for
 * the client, and how those bytes move. {@link ResponseBody} above it (buffering, body encodings, blocking and
 * non-blocking writes, readiness) knows nothing of the protocol's framing, of its head encoding or of connection
 * reuse. HTTP/1.1 over either transport is {@link Http1ResponseWire}; an HTTP/2 stream, which sends a HEADERS frame
 * and frames the body as DATA frames under flow-control windows, is meant to be another implementation.
 *
 * <p>Send buffers are laid out so a flush is one write: {@link #headroom()} bytes before the body bytes and
 * {@link #tailroom()} after them belong to the wire, which frames in place. Used by one thread at a time, the one
 * serving the exchange.
 */
interface ResponseWire {

    /** Bytes a send buffer keeps free before its body bytes. */
    int headroom();

    /** Bytes a send buffer keeps free after its body bytes. */
    int tailroom();

    /**
     * Commits the response: takes the framing and connection-reuse decision and prepares the head that the first
     * {@link #frame} puts before the body. Removes from {@code headers} the fields the protocol owns.
     *
     * @param declaredLength the handler's {@code Content-Length}, or -1
     * @param complete whether the handler is done, so {@code bodyBytes} is the whole body
     * @param encoded whether a body encoding makes the length on the wire unknown
     */
    ResponsePlan commit(int status, HeaderFields headers, long declaredLength, boolean complete, long bodyBytes,
            boolean encoded);

    /**
     * Frames the body bytes between {@code region}'s position and limit (none when the plan carries no body) — the
     * head before the first bytes sent, the end of the body after the last — in place where the buffer's headroom
     * and tailroom allow.
     *
     * @return the bytes to transmit: {@code region} itself, its position and limit moved, or a copy
     */
    ByteBuffer frame(ByteBuffer region, boolean last);

    /**
     * The handler will send trailer fields (or no longer will): called before commit, so the framing can leave room
     * for them. Over HTTP/1.1 a body of unknown length is then chunked.
     */
    void expectTrailers(boolean expected);

    /** The trailer fields, given just before the last {@link #frame}; sent after the body where the framing allows. */
    void trailers(HeaderFields fields);

    /** As {@link RequestWire#whenReadable}, for a write that would not wait. */
    void whenWritable(long deadlineNanos, Runnable task);

    /** Writes every byte, waiting for the client as long as the write timeout allows. */
    void write(ByteBuffer bytes) throws IOException;

    /** Writes what the connection takes now, as {@link ConnectionChannel#writeNow} describes. */
    int writeNow(ByteBuffer bytes) throws IOException;

    /**
     * Whether body bytes may go from a file straight to the connection ({@link #transferNow}): the committed framing
     * sends them as they are, and the connection takes them from the kernel. A wire that frames every byte (HTTP/2's
     * DATA frames) says no.
     */
    default boolean sendsFileRegions() {
        return false;
    }

    /** As {@link #writeNow}, for body bytes sent straight from {@code file}; only when {@link #sendsFileRegions()}. */
    default long transferNow(FileChannel file, long position, long count) throws IOException {
        throw new IllegalStateException("This wire cannot send file regions");
    }
}
