package io.sprout.engine.exchange;

import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Part of a file queued as body bytes of a non-blocking response, sent straight from the file to the socket
 * ({@link ResponseWire#transferNow}) as the client takes it, never through the heap. It owns the file: whatever ends
 * the region (its last byte sent, a failure, the exchange ending first) closes the file and settles {@link #sent()},
 * once. Used by one thread at a time, the one serving the exchange.
 */
final class FileRegion {

    /** Where the region's bytes go, as {@link ResponseWire#transferNow} takes them. */
    @FunctionalInterface
    interface Target {
        long transferNow(FileChannel file, long position, long count) throws IOException;
    }

    private final FileChannel file;
    private final long end;
    private final CompletableFuture<Void> sent = new CompletableFuture<>();
    private long position;

    /** @throws IllegalArgumentException (having closed {@code file}) for a negative position or count */
    FileRegion(FileChannel file, long position, long count) {
        this.file = file;
        if (position < 0 || count < 0) {
            closeFile();
            throw new IllegalArgumentException("A file region needs a position and count of 0 or more, not "
                    + position + " and " + count);
        }
        this.position = position;
        this.end = position + count;
    }

    /** Bytes of the region not sent yet. */
    long remaining() {
        return end - position;
    }

    /**
     * Completes when the last byte is sent; fails with what ended the sending, as it is (a dependent copy would wrap it
     * in a {@code CompletionException}). Completing it from outside changes nothing for the region or its file.
     */
    CompletionStage<Void> sent() {
        return sent;
    }

    /**
     * Sends what the wire takes now.
     *
     * @return whether the whole region has been sent (the file is closed and {@link #sent()} completed then)
     * @throws IOException when the wire failed or the file ended before the region (the region has failed then)
     */
    boolean sendNow(Target target) throws IOException {
        try {
            while (position < end) {
                long count = target.transferNow(file, position, end - position);
                if (count == 0) {
                    failIfFileEnded();
                    return false;
                }
                position += count;
            }
        } catch (IOException failed) {
            fail(failed);
            throw failed;
        }
        closeFile();
        sent.complete(null);
        return true;
    }

    /** The response carries no body ({@code HEAD}): the region is done without a byte sent. */
    void skip() {
        position = end;
        closeFile();
        sent.complete(null);
    }

    /** Ends the region unsent: the file closes and {@link #sent()} fails with {@code cause}; later calls do nothing. */
    void fail(Throwable cause) {
        closeFile();
        sent.completeExceptionally(cause);
    }

    /**
     * Nothing moved: a full socket, or a file cut short under the region. Only the latter is asked of the file, so a
     * truncated file fails the region rather than waiting for a writability that brings nothing more.
     */
    private void failIfFileEnded() throws IOException {
        if (position >= file.size()) {
            throw new EOFException("The file ended at byte " + position + ", before the region's end at " + end);
        }
    }

    private void closeFile() {
        try {
            file.close();
        } catch (IOException ignored) {
            // A read-only channel has nothing to flush: a failing close loses nothing, and the region is over anyway.
        }
    }
}
