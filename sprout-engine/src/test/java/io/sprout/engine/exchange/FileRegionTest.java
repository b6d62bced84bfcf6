package io.sprout.engine.exchange;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A file region against a target that takes a few bytes at a time and sometimes none, as a socket whose buffer
 * fills does: every part is sent once and in order, the file closes however the region ends, and its stage tells.
 */
class FileRegionTest {

    private static final int SIZE = 100_000;
    /** The most a transfer takes: a socket buffer's worth. */
    private static final int PART = 4096;

    @TempDir
    Path directory;

    private byte[] content;
    private Path path;

    @BeforeEach
    void writeFile() throws IOException {
        content = new byte[SIZE];
        new Random(SIZE).nextBytes(content);
        path = Files.write(directory.resolve("region.bin"), content);
    }

    @Test
    void sendsTheRegionAsTheTargetTakesItThenClosesTheFile() throws IOException {
        FileChannel file = open();
        FileRegion region = new FileRegion(file, 1000, 50_000);
        SmallParts target = new SmallParts();

        int calls = 0;
        while (!region.sendNow(target)) {
            calls++;
            target.takeMore();
        }

        assertThat(calls).as("times the target was full").isGreaterThan(10);
        assertThat(target.received()).isEqualTo(Arrays.copyOfRange(content, 1000, 51_000));
        assertThat(region.remaining()).isZero();
        assertThat(file.isOpen()).isFalse();
        assertThat(region.sent().toCompletableFuture()).isCompleted();
    }

    @Test
    void failsARegionThatOutrunsItsFileRatherThanWaitingForever() throws IOException {
        FileChannel file = open();
        FileRegion region = new FileRegion(file, SIZE - 10, 20);
        SmallParts target = new SmallParts();

        assertThatThrownBy(() -> region.sendNow(target)).isInstanceOf(EOFException.class);
        assertThat(target.received()).hasSize(10);
        assertThat(file.isOpen()).isFalse();
        assertThat(region.sent().toCompletableFuture()).isCompletedExceptionally();
    }

    @Test
    void closesTheFileWhenTheTargetFailsAndWhenTheRegionIsAbandoned() throws IOException {
        FileChannel failing = open();
        FileRegion broken = new FileRegion(failing, 0, SIZE);
        FileChannel abandoned = open();
        FileRegion dropped = new FileRegion(abandoned, 0, SIZE);

        assertThatThrownBy(() -> broken.sendNow((file, position, count) -> {
            throw new IOException("Broken pipe");
        })).hasMessage("Broken pipe");
        dropped.fail(new IOException("The exchange ended"));

        assertThat(failing.isOpen()).isFalse();
        assertThat(abandoned.isOpen()).isFalse();
        assertThat(broken.sent().toCompletableFuture()).isCompletedExceptionally();
        assertThat(dropped.sent().toCompletableFuture()).isCompletedExceptionally();
    }

    @Test
    void skipsTheRegionOfAResponseWithoutABody() throws IOException {
        FileChannel file = open();
        FileRegion region = new FileRegion(file, 0, SIZE);

        region.skip();

        assertThat(file.isOpen()).isFalse();
        assertThat(region.remaining()).isZero();
        assertThat(region.sent().toCompletableFuture()).isCompleted();
    }

    @Test
    void refusesANegativeRegionHavingClosedTheFile() throws IOException {
        FileChannel file = open();

        assertThatThrownBy(() -> new FileRegion(file, 0, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(file.isOpen()).isFalse();
    }

    private FileChannel open() throws IOException {
        return FileChannel.open(path, StandardOpenOption.READ);
    }

    /** Takes at most {@link #PART} bytes per transfer, and nothing again until {@link #takeMore()}. */
    private static final class SmallParts implements FileRegion.Target {

        private final ByteArrayOutputStream received = new ByteArrayOutputStream();
        private boolean full;

        @Override
        public long transferNow(FileChannel file, long position, long count) throws IOException {
            if (full) {
                return 0;
            }
            full = true;
            return file.transferTo(position, Math.min(count, PART), Channels.newChannel(received));
        }

        void takeMore() {
            full = false;
        }

        byte[] received() {
            return received.toByteArray();
        }
    }
}
