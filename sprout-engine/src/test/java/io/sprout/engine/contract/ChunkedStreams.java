package io.sprout.engine.contract;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.CRC32C;

/**
 * The client's side of large chunked bodies, streamed without holding them: sends pseudo-random content and reads
 * content back, each reporting its length and checksum.
 */
final class ChunkedStreams {

    /** How much content went by, and its checksum. */
    record Digest(long length, long crc) {
    }

    private ChunkedStreams() {
    }

    /** Writes {@code size} bytes of seeded pseudo-random content as chunks of {@code chunkSize}, then the last chunk. */
    static Digest send(OutputStream out, long size, int chunkSize, long seed) throws IOException {
        Random random = new Random(seed);
        CRC32C crc = new CRC32C();
        byte[] chunk = new byte[chunkSize];
        for (long sent = 0; sent < size; ) {
            int count = (int) Math.min(chunkSize, size - sent);
            random.nextBytes(chunk);
            crc.update(chunk, 0, count);
            out.write(ascii(Integer.toHexString(count) + "\r\n"));
            out.write(chunk, 0, count);
            out.write(ascii("\r\n"));
            sent += count;
        }
        out.write(ascii("0\r\n\r\n"));
        out.flush();
        return new Digest(size, crc.getValue());
    }

    /** Reads a chunked body to its last chunk (trailers are skipped). */
    static Digest receive(InputStream in) throws IOException {
        CRC32C crc = new CRC32C();
        byte[] buffer = new byte[65536];
        long total = 0;
        for (int size = chunkSize(in); size > 0; size = chunkSize(in)) {
            for (int left = size; left > 0; ) {
                int count = in.read(buffer, 0, Math.min(left, buffer.length));
                if (count < 0) {
                    throw new IOException("The connection closed inside a chunk");
                }
                crc.update(buffer, 0, count);
                left -= count;
                total += count;
            }
            line(in);
        }
        while (!line(in).isEmpty()) {
            // trailer fields: not needed
        }
        return new Digest(total, crc.getValue());
    }

    private static int chunkSize(InputStream in) throws IOException {
        String line = line(in);
        int semicolon = line.indexOf(';');
        return Integer.parseInt(semicolon < 0 ? line : line.substring(0, semicolon), 16);
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("The connection closed inside a chunk line");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
