package io.sprout.boot.servlet.multipart;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Finds a delimiter in a byte stream with the Knuth-Morris-Pratt failure table, copying everything before it to
 * a sink. Bytes that looked like the start of a delimiter but were not are written out as soon as the mismatch
 * shows, so memory stays at one delimiter's length.
 */
final class BoundaryScanner {

    private final byte[] delimiter;
    private final int[] failure;
    private int primed;

    BoundaryScanner(byte[] delimiter) {
        this.delimiter = delimiter;
        this.failure = new int[delimiter.length];
        for (int i = 1, k = 0; i < delimiter.length; i++) {
            while (k > 0 && delimiter[i] != delimiter[k]) {
                k = failure[k - 1];
            }
            if (delimiter[i] == delimiter[k]) {
                k++;
            }
            failure[i] = k;
        }
    }

    /** Treats the next search as if CRLF had just been read (the first delimiter lacks it). */
    void primeWithCrLf() {
        primed = 2;
    }

    /** Discards bytes up to and including the next delimiter (the preamble). */
    void skipTo(InputStream in) throws IOException {
        copyTo(in, OutputStream.nullOutputStream());
    }

    /** Copies bytes before the next delimiter to {@code sink} and consumes the delimiter. */
    void copyTo(InputStream in, OutputStream sink) throws IOException {
        int matched = primed;
        primed = 0;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("Malformed multipart body: it ends before the closing boundary");
            }
            while (matched > 0 && (byte) b != delimiter[matched]) {
                int fallback = failure[matched - 1];
                sink.write(delimiter, 0, matched - fallback);
                matched = fallback;
            }
            if ((byte) b == delimiter[matched]) {
                matched++;
                if (matched == delimiter.length) {
                    return;
                }
            } else {
                sink.write(b);
            }
        }
    }
}
