package io.sprout.boot.web;

import java.time.Duration;
import java.util.List;

/**
 * What the server drives through the whole stack before it opens its ports ({@code sprout.server.warm-up.*}):
 * {@code requests} GETs in all, spread over {@code paths} in turn by {@code concurrency} clients, stopped at
 * {@code timeout} however many were answered. The paths are the application's choice, so only idempotent GETs
 * belong here.
 *
 * @param paths request targets, each starting with {@code /}, optionally with a query
 * @param requests how many requests in all
 * @param concurrency how many requests at once
 * @param timeout the longest the warm-up may take
 */
public record WarmUp(List<String> paths, int requests, int concurrency, Duration timeout) {

    public WarmUp {
        paths = List.copyOf(paths);
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("paths must name at least one path");
        }
        for (String path : paths) {
            if (!path.startsWith("/")) {
                throw new IllegalArgumentException("paths must start with / but got " + path);
            }
        }
        if (requests < 1) {
            throw new IllegalArgumentException("requests must be at least 1 but was " + requests);
        }
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1 but was " + concurrency);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive but was " + timeout);
        }
    }

    /** What a warm-up did: answered requests by class, failures, and whether it ran out of time. */
    public record Result(int answered, int failed, boolean timedOut, Duration took, String firstFailure) {

        @Override
        public String toString() {
            return answered + " requests answered" + (failed > 0 ? ", " + failed + " failed (first: " + firstFailure
                    + ")" : "") + (timedOut ? ", stopped at the time limit" : "") + " in " + took.toMillis() + " ms";
        }
    }
}
