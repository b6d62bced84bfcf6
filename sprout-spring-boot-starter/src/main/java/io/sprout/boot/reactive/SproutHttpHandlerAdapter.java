package io.sprout.boot.reactive;

import io.sprout.engine.AsyncExchange;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.HttpResponse;
import io.sprout.engine.RequestHandler;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.HttpHeadResponseDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import reactor.core.publisher.Mono;

import java.lang.System.Logger.Level;
import java.net.URISyntaxException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a Spring {@link HttpHandler} (WebFlux) on the engine: each request becomes a suspended engine exchange,
 * the handler's {@code Mono<Void>} is subscribed, and the exchange is completed when it completes. The worker
 * returns as soon as the handler has returned its {@code Mono}; while the handling waits (for the client, a timer,
 * another service) no thread is held.
 *
 * <p><b>Threads.</b> {@code HttpHandler.handle} is called on the engine's worker for the exchange (a platform pool
 * thread or a virtual thread), and so is every body callback: reading the request body, writing and flushing the
 * response body, answering a failure. The engine runs them one at a time per exchange, in order, as it runs a
 * Servlet's async callbacks; never on an event loop, because a callback may take time (an application's
 * {@code onNext}, a body drained at completion) that an event loop serving other connections must not give. When the
 * application signals from a thread of its own (a scheduler, a timer), the engine work it causes (a non-blocking
 * write, a read that never waits) runs as a task of the exchange: at once on that thread when the exchange is idle,
 * which saves waking a worker, else on the worker after what is queued. So the engine's body streams are only ever
 * used in their exchange's turn. When the exchange is busy, demand for the next buffer comes back a task later: a
 * source that ignores demand, such as {@code Flux.interval}, needs an {@code onBackpressure...} operator, as Reactor
 * advises for it.
 *
 * <p><b>Ends.</b> Success completes the exchange (the engine then drains a request body the handler left unread,
 * within its limits); a failure answers {@code 500} if nothing was sent yet and otherwise aborts the connection.
 * When the exchange ends another way (the client leaves, a timeout, the server stops), the handling is cancelled
 * and the body publisher and processors are stopped, releasing the buffers they hold. {@code HEAD} requests get
 * Spring's {@link HttpHeadResponseDecorator}, as on Reactor Netty and Jetty.
 */
public final class SproutHttpHandlerAdapter implements RequestHandler {

    private static final System.Logger LOG = System.getLogger(SproutHttpHandlerAdapter.class.getName());

    /** Bytes of one body buffer read or file chunk sent: the engine's default I/O buffer. */
    private static final int CHUNK_SIZE = 16 * 1024;

    private final HttpHandler handler;
    private final DataBufferFactory bufferFactory;
    private final boolean useForwardHeaders;
    /** Requests so far: each one's id. */
    private final AtomicLong requestCount = new AtomicLong();

    public SproutHttpHandlerAdapter(HttpHandler handler) {
        this(handler, DefaultDataBufferFactory.sharedInstance);
    }

    /** @param bufferFactory makes the request body's buffers and is the response's {@code bufferFactory()} */
    public SproutHttpHandlerAdapter(HttpHandler handler, DataBufferFactory bufferFactory) {
        this(handler, bufferFactory, false);
    }

    /**
     * @param useForwardHeaders whether a trusted proxy's {@code Forwarded} / {@code X-Forwarded-*} headers set the
     *                          request's URI and remote address ({@code server.forward-headers-strategy=native}; see
     *                          {@link ReactiveRequestOrigin})
     */
    public SproutHttpHandlerAdapter(HttpHandler handler, DataBufferFactory bufferFactory,
            boolean useForwardHeaders) {
        this.handler = Objects.requireNonNull(handler, "handler");
        this.bufferFactory = Objects.requireNonNull(bufferFactory, "bufferFactory");
        this.useForwardHeaders = useForwardHeaders;
    }

    /** Worker: starts the handling and returns without waiting for it. */
    @Override
    public void handle(HttpRequest request, HttpResponse response) {
        String requestLine = request.method() + " " + request.target();
        ReactiveRequestOrigin origin;
        try {
            origin = ReactiveRequestOrigin.of(request, useForwardHeaders);
        } catch (URISyntaxException malformed) {
            LOG.log(Level.DEBUG, "Cannot make a URI of " + requestLine + ": " + malformed.getMessage());
            response.status(400);
            return;
        }
        AsyncExchange exchange = request.startAsync();
        exchange.nonBlockingResponse();
        SproutServerHttpRequest serverRequest = new SproutServerHttpRequest(
                Long.toHexString(requestCount.incrementAndGet()), request, origin, exchange, bufferFactory, CHUNK_SIZE);
        SproutServerHttpResponse serverResponse = new SproutServerHttpResponse(response, exchange, bufferFactory,
                CHUNK_SIZE, "[" + serverRequest.getId() + "] ");
        ServerHttpResponse handledResponse = serverRequest.getMethod() == HttpMethod.HEAD
                ? new HttpHeadResponseDecorator(serverResponse) : serverResponse;
        HandlerCompletion completion = new HandlerCompletion(exchange, response, requestLine);
        exchange.onEnd(cause -> {
            completion.dispose();
            Throwable ended = cause != null ? cause : new ExchangeCompleted();
            serverResponse.exchangeEnded(ended);
            serverRequest.exchangeEnded(ended);
        });
        // Deferred, so a handler that throws instead of returning an error fails the same way; setComplete commits
        // the status and cookies of a handler that wrote no body.
        Mono.defer(() -> handler.handle(serverRequest, handledResponse))
                .then(Mono.defer(handledResponse::setComplete))
                .subscribe(completion);
    }

    /**
     * What a body publisher or processor still open when the exchange completed hears (normally none is). Made for
     * every exchange, so without a stack trace, which would only name the engine's end listener anyway.
     */
    private static final class ExchangeCompleted extends IllegalStateException {

        ExchangeCompleted() {
            super("The exchange has completed");
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
