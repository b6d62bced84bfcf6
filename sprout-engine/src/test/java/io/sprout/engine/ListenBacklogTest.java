package io.sprout.engine;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The default listen backlog is the kernel's limit, so that a burst of connections is queued, not dropped. */
class ListenBacklogTest {

    @TempDir
    Path dir;

    @Test
    void defaultsToTheKernelsLimitOnLinux() throws IOException {
        Path somaxconn = Path.of("/proc/sys/net/core/somaxconn");
        int expected = 4096;
        if (System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux") && Files.isReadable(somaxconn)) {
            // Read in one call from the start, as the kernel answers a sysctl file (a first one-byte read once made
            // the default 4 of 4096).
            try (InputStream in = Files.newInputStream(somaxconn)) {
                String text = new String(in.readNBytes(64), StandardCharsets.US_ASCII).trim();
                expected = (int) Math.clamp(Long.parseLong(text), 1, 65_535);
            }
        }

        assertThat(ServerConfig.defaultAcceptBacklog()).isEqualTo(expected);
        assertThat(ServerConfig.builder().build().acceptBacklog()).isEqualTo(expected);
    }

    @Test
    void readsTheLimitAndKeepsItWithinWhatAServerConfigTakes() throws IOException {
        assertThat(ListenBacklog.fromSomaxconn(write("4096\n"))).isEqualTo(4096);
        assertThat(ListenBacklog.fromSomaxconn(write("128"))).isEqualTo(128);
        assertThat(ListenBacklog.fromSomaxconn(write("1000000\n"))).isEqualTo(65_535);
        assertThat(ListenBacklog.fromSomaxconn(write("0\n"))).isEqualTo(1);
    }

    @Test
    void fallsBackTo4096WhenTheLimitCannotBeRead() throws IOException {
        assertThat(ListenBacklog.fromSomaxconn(dir.resolve("absent"))).isEqualTo(4096);
        assertThat(ListenBacklog.fromSomaxconn(write("not a number\n"))).isEqualTo(4096);
        assertThat(ListenBacklog.fromSomaxconn(write(""))).isEqualTo(4096);
    }

    private Path write(String content) throws IOException {
        return Files.writeString(Files.createTempFile(dir, "somaxconn", ""), content);
    }
}
