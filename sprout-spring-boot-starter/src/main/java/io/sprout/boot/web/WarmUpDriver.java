package io.sprout.boot.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends a {@link WarmUp}'s requests to a port on the loopback address and waits for them, never past its time limit.
 * A request that fails (an error status, a broken connection) is counted and the warm-up goes on: warming up is an
 * optimisation, and a path that fails here fails for clients too, where the application will hear of it.
 */
final class WarmUpDriver {

    private final WarmUp warmUp;

    WarmUpDriver(WarmUp warmUp) {
        this.warmUp = warmUp;
    }

    WarmUp.Result run(int port) {
        long start = System.nanoTime();
        long deadline = start + warmUp.timeout().toNanos();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger answered = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        AtomicReference<String> firstFailure = new AtomicReference<>();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).build();
        try {
            List<Thread> clients = new ArrayList<>();
            for (int i = 0; i < warmUp.concurrency(); i++) {
                clients.add(Thread.ofVirtual().name("sprout-warm-up-", i).start(() -> {
                    for (int n = next.getAndIncrement(); n < warmUp.requests(); n = next.getAndIncrement()) {
                        long left = deadline - System.nanoTime();
                        if (left <= 0) {
                            return;
                        }
                        String path = warmUp.paths().get(n % warmUp.paths().size());
                        String failure = send(client, port, path, Duration.ofNanos(left));
                        if (failure == null) {
                            answered.incrementAndGet();
                        } else {
                            failed.incrementAndGet();
                            firstFailure.compareAndSet(null, failure);
                        }
                    }
                }));
            }
            for (Thread thread : clients) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !thread.join(Duration.ofNanos(left))) {
                    break;
                }
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } finally {
            client.shutdownNow();
        }
        int done = answered.get() + failed.get();
        return new WarmUp.Result(answered.get(), failed.get(), done < warmUp.requests(),
                Duration.ofNanos(System.nanoTime() - start), firstFailure.get());
    }

    /** @return {@code null} when answered with a 1xx-3xx status, else what went wrong */
    private static String send(HttpClient client, int port, String path, Duration timeout) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(timeout).header("User-Agent", "sprout-warm-up").GET().build();
        try {
            int status = client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            return status < 400 ? null : "GET " + path + ": " + status;
        } catch (IOException e) {
            return "GET " + path + ": " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "GET " + path + ": interrupted";
        }
    }
}
