package io.sprout.boot.servlet.multipart;

import jakarta.servlet.MultipartConfigElement;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Receives one part's bytes: in memory up to {@code fileSizeThreshold}, then in a temporary file; fails with
 * {@link IllegalStateException} past {@code maxFileSize}.
 */
final class PartSink extends OutputStream {

    /** Where a finished part's bytes are: in memory or in a file. */
    record Content(byte[] bytes, Path file, long size) {
    }

    private final MultipartConfigElement config;
    private final Path location;
    private final String partName;
    private ByteArrayOutputStream memory = new ByteArrayOutputStream();
    private OutputStream fileOut;
    private Path file;
    private long size;
    private boolean finished;

    PartSink(MultipartConfigElement config, Path location, String partName) {
        this.config = config;
        this.location = location;
        this.partName = partName;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        size += length;
        long max = config.getMaxFileSize();
        if (max > 0 && size > max) {
            throw new IllegalStateException("The field " + partName + " exceeds its maximum permitted size of "
                    + max + " bytes");
        }
        if (fileOut == null && size > Math.max(0, config.getFileSizeThreshold())) {
            Files.createDirectories(location);
            file = Files.createTempFile(location, "sprout-part-", ".tmp");
            fileOut = Files.newOutputStream(file);
            memory.writeTo(fileOut);
            memory = null;
        }
        if (fileOut != null) {
            fileOut.write(bytes, offset, length);
        } else {
            memory.write(bytes, offset, length);
        }
    }

    Content finish() throws IOException {
        finished = true;
        if (fileOut != null) {
            fileOut.close();
            return new Content(null, file, size);
        }
        return new Content(memory.toByteArray(), null, size);
    }

    /** Deletes a half-written file when the part failed. */
    @Override
    public void close() throws IOException {
        if (fileOut != null && !finished) {
            fileOut.close();
            Files.deleteIfExists(file);
        }
    }
}
