package io.sprout.boot.web;

import java.time.Duration;
import java.util.List;

/**
 * What the server drives through the whole stack before it opens its ports ({@code sprout.server.warm-up.*}):
 * {@code requests} GETs in all, spread over {@code paths} in turn by {@code concurrency} clients, and with
 * {@code untilCompiled} more until the JIT has settled; stopped at {@code timeout} however many were answered. The
 * paths are the application's choice, so only idempotent GETs belong here.
 *
 * @param paths request targets, each starting with {@code /}, optionally with a query
 * @param requests how many requests in all
 * @param concurrency how many requests at once
 * @param timeout the longest the warm-up may take
 * @param untilCompiled whether to go on after {@code requests} until the JIT compiled for less than a tenth of the
 *     last second: by then the paths' hot code is compiled by the optimising compiler, not only counted
 * @param loadShare with {@code untilCompiled}, the share of the time requests are sent while the JIT compiles, more
 *     than 0 and at most 1: the rest of the time the CPUs are left to the compiler
 */
public record WarmUp(List<String> paths, int requests, int concurrency, Duration timeout, boolean untilCompiled,
        double loadShare) {

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
        if (!(loadShare > 0 && loadShare <= 1)) {
            throw new IllegalArgumentException("loadShare must be more than 0 and at most 1 but was " + loadShare);
        }
    }

    /** Where the JIT stood when a warm-up ended. */
    public enum Jit {
        /** The warm-up was not asked to wait for it. */
        NOT_ASKED(""),
        /** It compiled for less than a tenth of the last second. */
        SETTLED(", until the JIT settled"),
        /** It was still compiling when the time limit came. */
        STILL_COMPILING(", the JIT still compiling"),
        /** This JVM does not report its compilation time, so the warm-up stopped after its requests. */
        UNKNOWN(", the JIT's state unknown (this JVM does not report compilation time)");

        private final String report;

        Jit(String report) {
            this.report = report;
        }
    }

    /** What a warm-up did: answered requests by class, failures, the JIT, and whether it ran out of time. */
    public record Result(int answered, int failed, boolean timedOut, Duration took, String firstFailure, Jit jit) {

        @Override
        public String toString() {
            return answered + " requests answered" + (failed > 0 ? ", " + failed + " failed (first: " + firstFailure
                    + ")" : "") + jit.report + (timedOut ? ", stopped at the time limit" : "") + " in "
                    + took.toMillis() + " ms";
        }
    }
}
