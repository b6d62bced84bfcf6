package io.sprout.boot.reactive;

import io.sprout.engine.AsyncExchange;
import io.sprout.engine.HttpResponse;
import org.reactivestreams.Processor;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseCookie;
import org.springframework.http.ZeroCopyHttpOutputMessage;
import org.springframework.http.server.reactive.AbstractListenerServerHttpResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.channels.AsynchronousFileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * An engine {@link HttpResponse} as Spring's {@code ServerHttpResponse}: the engine's headers through a live
 * adapter, status and cookies applied at commit, and the body written through the engine's non-blocking body
 * stream, so the engine still frames it, compresses it when its commit listener says so, and holds at most one
 * buffer of it.
 *
 * <p>The status, headers and cookies are applied on the thread that commits, before any body write is scheduled;
 * the body itself is written on the exchange's worker (see {@link ResponseOutput}).
 */
final class SproutServerHttpResponse extends AbstractListenerServerHttpResponse implements ZeroCopyHttpOutputMessage {

    private final HttpResponse response;
    private final AsyncExchange exchange;
    private final ResponseOutput output;
    private final FileRegionBody fileBody;
    private final int fileChunkSize;
    private final String logPrefix;
    private volatile ResponseBodyFlushProcessor bodyProcessor;

    /** @param fileChunkSize the bytes of each buffer a file region is read into */
    SproutServerHttpResponse(HttpResponse response, AsyncExchange exchange, DataBufferFactory bufferFactory,
            int fileChunkSize, String logPrefix) {
        super(bufferFactory, new HttpHeaders(new SproutHeadersAdapter(response.headers())));
        this.response = response;
        this.exchange = exchange;
        this.output = new ResponseOutput(exchange, response);
        this.fileBody = new FileRegionBody(exchange, response);
        this.fileChunkSize = fileChunkSize;
        this.logPrefix = logPrefix;
    }

    @Override
    public HttpStatusCode getStatusCode() {
        HttpStatusCode status = super.getStatusCode();
        return status != null ? status : HttpStatusCode.valueOf(response.status());
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T> T getNativeResponse() {
        return (T) response;
    }

    @Override
    protected void applyStatusCode() {
        HttpStatusCode status = super.getStatusCode();
        if (status != null) {
            response.status(status.value());
        }
    }

    /**
     * The headers are the engine's already; only the length is declared to the engine too, so that a body that
     * turns out longer or shorter fails instead of being framed wrongly.
     */
    @Override
    protected void applyHeaders() {
        long length = getHeaders().getContentLength();
        if (length >= 0) {
            response.contentLength(length);
        }
    }

    @Override
    protected void applyCookies() {
        for (List<ResponseCookie> cookies : getCookies().values()) {
            for (ResponseCookie cookie : cookies) {
                response.headers().add(HttpHeaders.SET_COOKIE, cookie.toString());
            }
        }
    }

    @Override
    protected Processor<? super Publisher<? extends DataBuffer>, Void> createBodyFlushProcessor() {
        ResponseBodyFlushProcessor processor = new ResponseBodyFlushProcessor(output, logPrefix);
        output.listener(processor);
        bodyProcessor = processor;
        return new ResponseBodyFailureOrder(processor, exchange);
    }

    /**
     * Sends {@code count} bytes of {@code file} from {@code position}, declaring the length unless the application
     * declared one. Zero-copy where the engine can send the region straight from the file to the socket
     * ({@code FileChannel.transferTo}, {@code sendfile} on Linux): a plaintext HTTP/1.1 connection, in both
     * execution modes, with a response that is not compressed. The bytes then never enter the heap, and a slow
     * client holds neither a buffer nor a thread while the kernel sends them as it reads. Elsewhere (TLS, an HTTP/2
     * stream, {@code server.compression}) the region is read in buffers and written through the same non-blocking
     * path as any body, one buffer in memory at a time. See {@link FileRegionBody}.
     */
    @Override
    public Mono<Void> writeWith(Path file, long position, long count) {
        if (getHeaders().getContentLength() < 0 && !isCommitted()) {
            getHeaders().setContentLength(count);
        }
        return doCommit(() -> fileBody.send(file, position, count,
                () -> writeWithInternal(readInBuffers(file, position, count))));
    }

    /** The copying fallback: the region read into buffers of the file chunk size. */
    private Flux<DataBuffer> readInBuffers(Path file, long position, long count) {
        Flux<DataBuffer> region = DataBufferUtils.readAsynchronousFileChannel(
                () -> AsynchronousFileChannel.open(file, StandardOpenOption.READ), position, bufferFactory(),
                fileChunkSize);
        return DataBufferUtils.takeUntilByteCount(region, count);
    }

    /** The exchange has ended: a body still being written stops, and its buffers are released. */
    void exchangeEnded(Throwable cause) {
        ResponseBodyFlushProcessor processor = bodyProcessor;
        if (processor != null) {
            processor.abort(cause);
        }
    }
}
