package io.sprout.engine;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * A request/response exchange that outlives its {@link RequestHandler#handle} call. Obtained from
 * {@link HttpRequest#startAsync()}; once the handler returns, its worker goes back to the pool (or its virtual
 * thread ends) and the exchange waits, holding no thread, until some thread {@link #complete() completes} it.
 *
 * <p><b>Threads.</b> Every method may be called from any thread and never blocks. Tasks passed to
 * {@link #execute}, and every callback this interface takes, run on a worker (never on an event loop), one at a
 * time per exchange and in order; the handler's own call counts as one of them, so nothing runs until it returns.
 * The request and response streams may be used from any thread, one at a time.
 *
 * <p><b>Non-blocking body I/O.</b> {@link #requestReady()} says whether a read of the request body would return
 * without waiting; {@link #onRequestReady} asks for one callback once it would (or once reading has failed, so the
 * read throws). After {@link #nonBlockingResponse()}, response writes never wait for the client: while bytes are
 * still unsent {@link #responseReady()} is {@code false}, and {@link #onResponseReady} asks for one callback once
 * they are sent. Readiness comes from the event loop in both execution modes, so a suspended exchange that waits
 * for the client holds no thread.
 *
 * <p><b>File regions.</b> Where the bytes need not pass through the heap, {@link #sendFileRegion} sends part of a
 * file straight from the file to the socket ({@link FileChannel#transferTo}, {@code sendfile} on Linux), as the
 * client takes it; {@link #sendsFileRegions()} says where. Elsewhere the handler writes the file's bytes to the body.
 *
 * <p><b>Takeover.</b> {@link #upgrade()} answers {@code 101 Switching Protocols} and turns both body streams into
 * the raw connection: the request body reads every byte the client sends after the request head (those already
 * received first), the response body writes bytes unframed. The exchange then lasts until {@link #complete()}
 * closes the connection cleanly or {@link #abort} drops it.
 *
 * <p><b>Limits.</b> The body read and write timeouts of the server apply to waits of a suspended exchange as to any
 * other; {@link #timeout} adds an overall one. Graceful shutdown waits for suspended exchanges (they count as
 * active requests) but not for upgraded connections, whose {@link #onShutdown} task runs instead; {@code stop()}
 * aborts both.
 */
public interface AsyncExchange {

    /**
     * Runs {@code task} on a worker after the tasks and callbacks already queued for this exchange.
     *
     * @return {@code false}, without running it, when the exchange has already ended
     */
    boolean execute(Runnable task);

    /**
     * Runs {@code task} at once on the calling thread when none of the exchange's tasks or callbacks is running or
     * queued, holding the exchange's turn while it runs; otherwise as {@link #execute}. For short work signalled by
     * a thread of the application's (a timer, a reactive scheduler) that never blocks, such as a non-blocking
     * write: it saves handing the work to a worker and waking it. The task must not wait, since it may run on a
     * thread the application shares.
     *
     * @return {@code false}, without running it, when the exchange has already ended
     */
    default boolean runOrExecute(Runnable task) {
        return execute(task);
    }

    /**
     * From now on, a readiness callback ({@link #onRequestReady}, {@link #onResponseReady}) whose readiness the
     * engine observes later runs as by {@link #runOrExecute} on the observing thread (an event loop) rather than
     * always on a worker: when the exchange is idle it runs at once, saving a hand-off and a worker's wake-up per
     * readiness. For exchanges whose callbacks never block, such as a WebSocket whose handler says so; a callback that
     * blocked would stall every connection of its event loop.
     */
    default void readinessCallbacksInline() {
    }

    /**
     * Runs {@code task} on a worker of its own, beside this exchange's tasks and callbacks rather than in turn with
     * them: for application work that may block for long (the Servlet {@code AsyncContext.start}) while the
     * exchange's timeout, callbacks and completion go on. Bounded by the workers, as requests are: with platform
     * threads it takes a pool thread or a place in the pool's queue, and never starts a thread of its own. The
     * task handles its own failures: one it throws goes to the worker's uncaught-exception handler, and the exchange
     * does not hear of it.
     *
     * @throws java.util.concurrent.RejectedExecutionException without running it, when the workers and their queue
     *     are full or the server is stopping
     */
    void executeConcurrently(Runnable task);

    /**
     * Arms the exchange's timeout, replacing any earlier one: unless the exchange ends first, {@code onTimeout}
     * runs (as by {@link #execute}) once {@code after} has passed. {@link Duration#ZERO} disarms it.
     */
    void timeout(Duration after, Runnable onTimeout);

    /** Whether a read of the request body would return (bytes, its end, or its failure) without waiting. */
    boolean requestReady();

    /** Runs {@code callback} once {@link #requestReady()} holds; at once (as by {@link #execute}) if it does. */
    void onRequestReady(Runnable callback);

    /**
     * Switches the response body to non-blocking writes. A write while {@link #responseReady()} is {@code false}
     * throws {@link IllegalStateException}; a write larger than what the socket takes is kept whole until sent.
     */
    void nonBlockingResponse();

    /** Whether the response body can take a write without waiting; always {@code true} for blocking writes. */
    boolean responseReady();

    /** Runs {@code callback} once {@link #responseReady()} holds; at once (as by {@link #execute}) if it does. */
    void onResponseReady(Runnable callback);

    /**
     * Whether {@link #sendFileRegion} may be called now: the response is non-blocking ({@link #nonBlockingResponse()})
     * and committed, and its body bytes go to the socket as they are. Committed, since only the commit decides the
     * framing and runs the before-commit listeners that may install a body encoding (a flush commits). As they are,
     * since a region skips the heap: so {@code true} on a plaintext HTTP/1.1 connection whose socket is non-blocking
     * for the response (in hybrid mode, once the handler has returned), with a declared {@code Content-Length} (or
     * HTTP/1.0's close-delimited body); and {@code true} whenever the response has no body at all ({@code HEAD},
     * 204, 304), where a region sends nothing. {@code false} over TLS (bytes are encrypted in the heap), on an
     * HTTP/2 stream (DATA frames under flow control), for an encoded (compressed) or chunked body, or before commit:
     * write the file's bytes to the body instead.
     */
    default boolean sendsFileRegions() {
        return false;
    }

    /**
     * Queues {@code count} bytes of {@code file} from {@code position} as the next bytes of the response body (they
     * count against a declared {@code Content-Length} as written bytes do) and sends them straight from the file to
     * the socket as the client takes them: what the socket takes now, then more at each writability, never waiting
     * on a thread. {@link #responseReady()} is {@code false} until the last byte is sent. Each wait for the client
     * is bounded by the write timeout; a client that keeps reading, however slowly, gets the whole region. Only when
     * {@link #sendsFileRegions()} and {@link #responseReady()} hold; {@link #complete()} before the region is sent
     * aborts the connection, since the body cannot be completed.
     *
     * <p>Takes {@code file}: the exchange closes it once the region is sent, when sending fails, when the exchange
     * ends first (the client gone, an abort, a timeout, {@code stop()}), and whenever this method throws.
     *
     * @return completes, in the exchange's turn, once the last byte is sent; fails with the {@link IOException}
     *     that ended the sending (the client gone, the file shorter than the region, the write timeout)
     * @throws IllegalStateException when {@link #sendsFileRegions()} or {@link #responseReady()} is {@code false}
     * @throws IllegalArgumentException for a negative {@code position} or {@code count}
     */
    default CompletionStage<Void> sendFileRegion(FileChannel file, long position, long count) {
        try {
            file.close();
        } catch (IOException ignored) {
            // Closing is all this exchange can do with the file; its failure changes nothing for the caller.
        }
        throw new IllegalStateException("This exchange cannot send file regions");
    }

    /**
     * Sends {@code 101 Switching Protocols} with the response's headers (the handler sets {@code Upgrade} and
     * {@code Connection}) and hands the connection over to the body streams, as described above.
     *
     * @throws IllegalStateException when the response is committed or the request body has not been read to its end
     * @throws java.io.IOException when the client has gone
     */
    void upgrade() throws java.io.IOException;

    /**
     * After {@link #upgrade()}: how long a wait for the client's next bytes may last before reading fails with a
     * {@link java.net.SocketTimeoutException}, replacing the server's idle timeout for this connection.
     * {@link Duration#ZERO} waits without limit. Applies from the next wait on.
     */
    void idleTimeout(Duration timeout);

    /** Runs {@code task} (as by {@link #execute}) when a graceful shutdown begins while the exchange is upgraded. */
    void onShutdown(Runnable task);

    /**
     * Completes the response, as a handler's return does for a blocking exchange, and lets the connection carry the
     * next request (or, after {@link #upgrade()}, closes it cleanly). Later calls do nothing.
     */
    void complete();

    /** Drops the connection at once: the response cannot be completed. Later calls do nothing. */
    void abort(Throwable cause);

    /**
     * Registers a listener told once when the exchange ends: with {@code null} after a completed response, with
     * the cause when it was aborted (by {@link #abort}, the client going away, a timeout or the server stopping).
     * Runs on the thread that ends the exchange; at once if it already has.
     */
    void onEnd(Consumer<Throwable> listener);
}
