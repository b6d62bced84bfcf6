package io.sprout.sample;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Iterator;
import java.util.NoSuchElementException;

import org.springframework.stereotype.Service;

/**
 * The work behind the benchmark endpoints, kept apart from the web layer so that the Spring MVC and the
 * WebFlux builds run exactly the same code. Every method runs on the calling thread and may block.
 */
@Service
public class BenchmarkWork {

    /** Largest {@code n} whose Fibonacci number fits in a {@code long}. */
    static final int MAX_FIBONACCI_N = 92;

    /** Upper bound of the sieve: 10 million booleans, about 10 MB per request. */
    static final int MAX_SIEVE_LIMIT = 10_000_000;

    /** Longest accepted sleep, so one request can never hold a worker for long. */
    static final int MAX_SLEEP_MILLIS = 10_000;

    /** Largest payload of {@code /bytes} and {@code /stream}: 16 MiB, enough for slow readers, too little to fill the heap. */
    static final int MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;

    /**
     * One transfer buffer of the payload pattern, {@code a..z} 316 times (8,216 bytes): a whole number of
     * alphabets, so consecutive writes of its prefixes continue the pattern. Never written to after construction.
     */
    private final byte[] payloadChunk = payload(26 * 316);

    /** Iterative Fibonacci, as in the seed benchmark: {@code fibonacci(0) == 0}, {@code fibonacci(1) == 1}. */
    public long fibonacci(int n) {
        long previous = 0;
        long current = 1;
        if (n == 0) {
            return 0;
        }
        for (int i = 2; i <= n; i++) {
            long next = previous + current;
            previous = current;
            current = next;
        }
        return current;
    }

    /** Counts the primes {@code <= limit} with a sieve of Eratosthenes. */
    public int countPrimes(int limit) {
        if (limit < 2) {
            return 0;
        }
        boolean[] composite = new boolean[limit + 1];
        int count = 0;
        for (int i = 2; i <= limit; i++) {
            if (!composite[i]) {
                count++;
                for (long multiple = (long) i * i; multiple <= limit; multiple += i) {
                    composite[(int) multiple] = true;
                }
            }
        }
        return count;
    }

    /**
     * A payload of {@code size} bytes of printable ASCII ({@code a..z} repeated), so a client reading it slowly
     * can tell by eye how far it got.
     */
    public byte[] payload(int size) {
        byte[] payload = new byte[size];
        for (int i = 0; i < size; i++) {
            payload[i] = (byte) ('a' + i % 26);
        }
        return payload;
    }

    /**
     * {@link #payload}'s {@code size} bytes as consecutive read-only views of a shared transfer buffer, for a
     * streaming response that writes them piece by piece; each iteration starts again from the first byte.
     */
    public Iterable<ByteBuffer> payloadChunks(int size) {
        return () -> new Iterator<>() {
            private int left = size;

            @Override
            public boolean hasNext() {
                return left > 0;
            }

            @Override
            public ByteBuffer next() {
                if (left == 0) {
                    throw new NoSuchElementException();
                }
                int length = Math.min(left, payloadChunk.length);
                left -= length;
                return ByteBuffer.wrap(payloadChunk, 0, length).asReadOnlyBuffer();
            }
        };
    }

    /** Blocks the calling thread, standing in for a remote call or a slow query. */
    public void sleep(int millis) {
        try {
            Thread.sleep(Duration.ofMillis(millis));
        }
        catch (InterruptedException ex) {
            // Restore the flag for the server's worker; the response is still produced.
            Thread.currentThread().interrupt();
        }
    }

}
