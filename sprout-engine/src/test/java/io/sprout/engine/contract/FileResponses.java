package io.sprout.engine.contract;

import io.sprout.engine.AsyncExchange;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.HttpResponse;
import io.sprout.engine.RequestHandler;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.zip.GZIPOutputStream;

/**
 * {@code /file?<from>-<count>} answers that region of one file as a non-blocking exchange: sent as a file region
 * when the exchange says it can, written through the body otherwise (an {@code X-Gzip} request has the body
 * gzip-encoded at commit); {@code /written-first?<size>} writes first, then asks; anything else is the contract's.
 * It records what the exchange answered and what happened to the region, for the test to assert on.
 */
final class FileResponses implements RequestHandler {

    /** What {@code sendsFileRegions()} answered, in order: before commit, in the handler, in the exchange's turn. */
    final List<Boolean> answers = new CopyOnWriteArrayList<>();
    /** The channels handed to the exchange. */
    final List<FileChannel> opened = new CopyOnWriteArrayList<>();
    /** Counted down when a region was left waiting for the socket to take more. */
    final CountDownLatch waitedForTheSocket = new CountDownLatch(1);
    /** How the first region ended: {@code null} once sent, else the failure. */
    final CompletableFuture<Throwable> regionEnd = new CompletableFuture<>();
    /** How the first file exchange ended: {@code null} once completed, else the cause of its abort. */
    final CompletableFuture<Throwable> ended = new CompletableFuture<>();

    private final Path file;
    private final ContractHandler contract = new ContractHandler();

    FileResponses(Path file) {
        this.file = file;
    }

    long openFiles() {
        return opened.stream().filter(FileChannel::isOpen).count();
    }

    @Override
    public void handle(HttpRequest request, HttpResponse response) throws Exception {
        if ("/written-first".equals(request.path())) {
            writeFirst(request, response, Integer.parseInt(request.query()));
            return;
        }
        if (!"/file".equals(request.path())) {
            contract.handle(request, response);
            return;
        }
        String[] region = request.query().split("-");
        long from = Long.parseLong(region[0]);
        long count = Long.parseLong(region[1]);
        AsyncExchange async = request.startAsync();
        async.nonBlockingResponse();
        async.onEnd(ended::complete);
        if (request.headers().contains("X-Gzip")) {
            response.beforeCommit((complete, buffered) -> response.encodeBody(FileResponses::gzip));
        }
        response.contentLength(count);
        answers.add(async.sendsFileRegions());
        response.body().flush();
        answers.add(async.sendsFileRegions());
        // Runs once the handler has returned (then hybrid's socket is non-blocking) and the head is sent.
        async.onResponseReady(() -> send(async, response, from, count));
    }

    /**
     * {@code /written-first?<size>}: an asynchronous exchange whose handler first writes {@code size} bytes with
     * blocking writes, then turns the response non-blocking and records whether it could send a file region now.
     */
    private void writeFirst(HttpRequest request, HttpResponse response, int size) throws IOException {
        AsyncExchange async = request.startAsync();
        response.contentLength(size);
        byte[] bytes = new byte[size];
        Arrays.fill(bytes, (byte) 'x');
        response.body().write(bytes);
        response.body().flush();
        async.nonBlockingResponse();
        answers.add(async.sendsFileRegions());
        async.complete();
    }

    private void send(AsyncExchange async, HttpResponse response, long from, long count) {
        boolean direct = async.sendsFileRegions();
        answers.add(direct);
        try {
            if (!direct) {
                response.body().write(Arrays.copyOfRange(Files.readAllBytes(file), (int) from, (int) (from + count)));
                regionEnd.complete(null);
                async.complete();
                return;
            }
            FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
            opened.add(channel);
            CompletionStage<Void> sent = async.sendFileRegion(channel, from, count);
            if (!async.responseReady()) {
                waitedForTheSocket.countDown();
            }
            sent.whenComplete((done, failure) -> {
                regionEnd.complete(failure);
                if (failure == null) {
                    async.complete();
                } else {
                    async.abort(failure);
                }
            });
        } catch (IOException failure) {
            regionEnd.complete(failure);
            async.abort(failure);
        }
    }

    private static OutputStream gzip(OutputStream out) {
        try {
            return new GZIPOutputStream(out, true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
