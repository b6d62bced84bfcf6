package io.sprout.engine;

import java.io.IOException;
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
        int expected = System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")
                && Files.isReadable(somaxconn)
                ? (int) Math.clamp(Long.parseLong(Files.readString(somaxconn).trim()), 1, 65_535)
                : 4096;

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
