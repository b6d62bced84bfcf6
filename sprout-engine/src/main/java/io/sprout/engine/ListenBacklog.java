package io.sprout.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The default listen backlog: as deep as the kernel allows, which on Linux is {@code net.core.somaxconn} (read from
 * {@code /proc/sys/net/core/somaxconn}; 4096 since Linux 5.4), else {@link #FALLBACK}. Netty's default is the same.
 *
 * <p>Why not a fixed 1024: a burst of 2,000 new connections (a client pool opening at once, a load balancer
 * shifting traffic to a new instance) filled a 1024-deep queue before the acceptor thread, sharing one CPU with
 * the workers, could drain it; the kernel dropped the overflow ({@code TcpExtListenOverflows} 55-302 per launch) and
 * those clients sent their SYN again after a second, which set the burst's p99 at just over 1 s. A larger backlog
 * reserves nothing: the kernel queues connections only as they come.
 */
final class ListenBacklog {

    static final int FALLBACK = 4096;
    /** The most a backlog may be ({@link ServerConfig} refuses more). */
    static final int MAX = 65_535;

    private ListenBacklog() {
    }

    /** The kernel's limit, or {@link #FALLBACK} when it cannot be read. */
    static int defaultBacklog() {
        return fromSomaxconn(Path.of("/proc/sys/net/core/somaxconn"));
    }

    /** The limit in {@code file}, at least 1 and at most {@link #MAX}, or {@link #FALLBACK}. */
    static int fromSomaxconn(Path file) {
        try {
            if (!Files.isReadable(file)) {
                return FALLBACK;
            }
            // One line, read through a buffer: a sysctl file answers only a read from its start, so a reader that
            // takes one byte first and then the rest (Files.readString does, for a file of size 0) sees "4" of "4096".
            List<String> lines = Files.readAllLines(file);
            return lines.isEmpty() ? FALLBACK : Math.clamp(Long.parseLong(lines.getFirst().trim()), 1, MAX);
        } catch (IOException | RuntimeException unreadable) {
            // Not Linux, or not a number: the limit stays unknown and the fallback holds.
            return FALLBACK;
        }
    }
}
