package io.sprout.boot.servlet;

import io.sprout.engine.AsyncExchange;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * An engine exchange suspended in memory, with the engine's rules that the container relies on: tasks run one at
 * a time on another thread, none before the handler has returned ({@link #handlerReturned()}), and
 * {@link #complete()} ends the exchange once.
 */
final class FakeAsyncExchange implements AsyncExchange {

    private final ExecutorService worker = Executors.newSingleThreadExecutor(Thread.ofVirtual().factory());
    private final CountDownLatch handlerDone = new CountDownLatch(1);
    private final CountDownLatch ended = new CountDownLatch(1);
    private final List<Consumer<Throwable>> endListeners = new ArrayList<>();

    void handlerReturned() {
        handlerDone.countDown();
    }

    /** Waits for the exchange to end; true when it did in time. */
    boolean awaitEnd(Duration timeout) throws InterruptedException {
        boolean done = ended.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        worker.shutdown();
        return done;
    }

    @Override
    public boolean execute(Runnable task) {
        if (ended.getCount() == 0) {
            return false;
        }
        worker.execute(() -> {
            try {
                handlerDone.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            task.run();
        });
        return true;
    }

    @Override
    public void executeConcurrently(Runnable task) {
        Thread.ofVirtual().start(task);
    }

    @Override
    public void timeout(Duration after, Runnable onTimeout) {
        // The container's unit tests complete or dispatch well before any timeout.
    }

    @Override
    public boolean requestReady() {
        return true;
    }

    @Override
    public void onRequestReady(Runnable callback) {
        execute(callback);
    }

    @Override
    public void nonBlockingResponse() {
        // The fake response never blocks.
    }

    @Override
    public boolean responseReady() {
        return true;
    }

    @Override
    public void onResponseReady(Runnable callback) {
        execute(callback);
    }

    @Override
    public void upgrade() throws IOException {
        throw new IOException("the fake exchange cannot switch protocols");
    }

    @Override
    public void idleTimeout(Duration timeout) {
        // No connection to time out.
    }

    @Override
    public void onShutdown(Runnable task) {
        // No server to shut down.
    }

    @Override
    public void complete() {
        end(null);
    }

    @Override
    public void abort(Throwable cause) {
        end(cause);
    }

    private synchronized void end(Throwable cause) {
        if (ended.getCount() == 0) {
            return;
        }
        ended.countDown();
        endListeners.forEach(listener -> listener.accept(cause));
    }

    @Override
    public synchronized void onEnd(Consumer<Throwable> listener) {
        endListeners.add(listener);
    }
}
