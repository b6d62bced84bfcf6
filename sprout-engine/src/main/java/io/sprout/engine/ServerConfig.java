package io.sprout.engine;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything a {@link SproutServer} needs to know, validated on construction: a bad value throws an
 * {@link InvalidConfigException} naming the field and its allowed range. Build one with {@link #builder()}.
 *
 * @param address the local address to bind, or {@code null} for every interface
 * @param port the TCP port, 0 for an ephemeral one (see {@link SproutServer#port()})
 * @param additionalPorts more ports to listen on, on the same address (default none; 0 for an ephemeral one). They
 *     serve exactly like the main port and share its workers, buffers, limits and connection admission (see
 *     {@link SproutServer#ports()})
 * @param executionMode {@link ExecutionMode#NIO} (default) or {@link ExecutionMode#HYBRID}
 * @param threadType worker threads: {@link ThreadType#PLATFORM} (default) or {@link ThreadType#VIRTUAL}
 * @param threadPoolSize platform workers in the fixed pool (default 200); ignored for virtual threads
 * @param workerQueueCapacity tasks that may wait for a platform worker (default 10,000); beyond it: 503 and close
 * @param selectorThreads event loops, in either execution mode (default one per core)
 * @param acceptBacklog the listen backlog (default {@link #defaultAcceptBacklog()}: as deep as the kernel allows; the
 *     JDK's 50, and even 1024, drop connection bursts)
 * @param socketSendBuffer {@code SO_SNDBUF} of every accepted connection in bytes, or 0 to leave it to the OS
 *     (default 512 KiB). A fixed size turns off the kernel's send-buffer auto-tuning (Linux grows each buffer to
 *     4 MiB by default), which bounds the kernel memory and the burst of copying a slow or stalled reader can cost
 *     (250 stalled downloads on loopback: 251 MiB of TCP buffers, both ends counted, instead of 940 MiB). Linux
 *     doubles the value for its bookkeeping and caps it at {@code net.core.wmem_max}. A single download is then
 *     limited to about this many bytes in flight per round trip: plenty on a LAN or behind a proxy, a limit for
 *     large downloads over long-distance links
 * @param maxConnections open connections the server keeps (default: nine tenths of the process's open-file limit,
 *     see {@link #defaultMaxConnections()}). At the limit a new connection is still accepted: the oldest idle
 *     keep-alive connection is closed to make room, else the slowest incomplete request head (the oldest); only
 *     when there is neither is the new client answered 503 with {@code Connection: close} at once. No client waits
 *     in the kernel backlog for a slot
 * @param maxKeepAliveRequests requests served on one connection before it is closed, or -1 for no limit (default)
 * @param serverHeader the {@code Server} response header, or {@code null} (default) to send none
 * @param bufferSize bytes of each pooled I/O buffer (default 16 KiB)
 * @param bufferPoolCapacity idle buffers the pool keeps for reuse (default 1024)
 * @param limits request size limits
 * @param timeouts client time limits
 * @param minDataRates the slowest a request head and body may arrive (default 240 bytes/s after 5 s)
 * @param tls TLS for every connection ({@code https}), or {@code null} (default) for plaintext HTTP
 * @param http2 HTTP/2 next to HTTP/1.1 (h2 over TLS, h2c in plaintext), or {@code null} (default) for HTTP/1.1 only
 */
public record ServerConfig(
        InetAddress address,
        int port,
        List<Integer> additionalPorts,
        ExecutionMode executionMode,
        ThreadType threadType,
        int threadPoolSize,
        int workerQueueCapacity,
        int selectorThreads,
        int acceptBacklog,
        int socketSendBuffer,
        int maxConnections,
        int maxKeepAliveRequests,
        String serverHeader,
        int bufferSize,
        int bufferPoolCapacity,
        HttpLimits limits,
        Timeouts timeouts,
        MinDataRates minDataRates,
        TlsConfig tls,
        Http2Config http2) {

    public ServerConfig {
        Check.range("port", port, 0, 65535);
        additionalPorts = Check.ports("additionalPorts", additionalPorts);
        Check.notNull("executionMode", executionMode);
        Check.notNull("threadType", threadType);
        Check.range("threadPoolSize", threadPoolSize, 1, 32_767);
        Check.range("workerQueueCapacity", workerQueueCapacity, 0, Integer.MAX_VALUE);
        Check.range("selectorThreads", selectorThreads, 1, 256);
        Check.range("acceptBacklog", acceptBacklog, 1, ListenBacklog.MAX);
        Check.zeroOrRange("socketSendBuffer", socketSendBuffer, 4096, 1 << 30);
        Check.range("maxConnections", maxConnections, 1, 10_000_000);
        Check.rangeOrUnlimited("maxKeepAliveRequests", maxKeepAliveRequests, 1, Integer.MAX_VALUE);
        Check.printableAscii("serverHeader", serverHeader);
        Check.range("bufferSize", bufferSize, 1024, 1 << 22);
        Check.range("bufferPoolCapacity", bufferPoolCapacity, 0, 1 << 20);
        Check.notNull("limits", limits);
        Check.notNull("timeouts", timeouts);
        Check.notNull("minDataRates", minDataRates);
    }

    /**
     * The default {@code maxConnections}: nine tenths of the process's open-file limit (the rest is left for files,
     * listeners and selectors), or 8192 where the JDK cannot tell the limit.
     */
    public static int defaultMaxConnections() {
        return OpenFileLimit.defaultMaxConnections();
    }

    /**
     * The default listen backlog: the kernel's limit, {@code net.core.somaxconn} on Linux (the kernel caps any backlog
     * at it), or 4096 where it cannot be read.
     */
    public static int defaultAcceptBacklog() {
        return ListenBacklog.defaultBacklog();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder seeded with this config's values. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Collects values for a {@link ServerConfig}; validation happens in {@link #build()}. */
    public static final class Builder {
        private InetAddress address;
        private int port = 8080;
        private List<Integer> additionalPorts = List.of();
        private ExecutionMode executionMode = ExecutionMode.NIO;
        private ThreadType threadType = ThreadType.PLATFORM;
        private int threadPoolSize = 200;
        private int workerQueueCapacity = 10_000;
        private int selectorThreads = Runtime.getRuntime().availableProcessors();
        private int acceptBacklog = ListenBacklog.defaultBacklog();
        private int socketSendBuffer = 512 * 1024;
        private int maxConnections = OpenFileLimit.defaultMaxConnections();
        private int maxKeepAliveRequests = -1;
        private String serverHeader;
        private int bufferSize = 16 * 1024;
        private int bufferPoolCapacity = 1024;
        private HttpLimits limits = HttpLimits.DEFAULT;
        private Timeouts timeouts = Timeouts.DEFAULT;
        private MinDataRates minDataRates = MinDataRates.DEFAULT;
        private TlsConfig tls;
        private Http2Config http2;

        private Builder() {
        }

        private Builder(ServerConfig config) {
            address = config.address;
            port = config.port;
            additionalPorts = config.additionalPorts;
            executionMode = config.executionMode;
            threadType = config.threadType;
            threadPoolSize = config.threadPoolSize;
            workerQueueCapacity = config.workerQueueCapacity;
            selectorThreads = config.selectorThreads;
            acceptBacklog = config.acceptBacklog;
            socketSendBuffer = config.socketSendBuffer;
            maxConnections = config.maxConnections;
            maxKeepAliveRequests = config.maxKeepAliveRequests;
            serverHeader = config.serverHeader;
            bufferSize = config.bufferSize;
            bufferPoolCapacity = config.bufferPoolCapacity;
            limits = config.limits;
            timeouts = config.timeouts;
            minDataRates = config.minDataRates;
            tls = config.tls;
            http2 = config.http2;
        }

        public Builder address(InetAddress value) {
            address = value;
            return this;
        }

        public Builder port(int value) {
            port = value;
            return this;
        }

        /** Replaces the additional ports; none by default. */
        public Builder additionalPorts(List<Integer> value) {
            additionalPorts = value == null ? null : new ArrayList<>(value);
            return this;
        }

        public Builder executionMode(ExecutionMode value) {
            executionMode = value;
            return this;
        }

        public Builder threadType(ThreadType value) {
            threadType = value;
            return this;
        }

        public Builder threadPoolSize(int value) {
            threadPoolSize = value;
            return this;
        }

        public Builder workerQueueCapacity(int value) {
            workerQueueCapacity = value;
            return this;
        }

        public Builder selectorThreads(int value) {
            selectorThreads = value;
            return this;
        }

        public Builder acceptBacklog(int value) {
            acceptBacklog = value;
            return this;
        }

        /** {@code SO_SNDBUF} of accepted connections in bytes; 0 leaves it (and its auto-tuning) to the OS. */
        public Builder socketSendBuffer(int value) {
            socketSendBuffer = value;
            return this;
        }

        public Builder maxConnections(int value) {
            maxConnections = value;
            return this;
        }

        public Builder maxKeepAliveRequests(int value) {
            maxKeepAliveRequests = value;
            return this;
        }

        public Builder serverHeader(String value) {
            serverHeader = value;
            return this;
        }

        public Builder bufferSize(int value) {
            bufferSize = value;
            return this;
        }

        public Builder bufferPoolCapacity(int value) {
            bufferPoolCapacity = value;
            return this;
        }

        public Builder limits(HttpLimits value) {
            limits = value;
            return this;
        }

        public Builder timeouts(Timeouts value) {
            timeouts = value;
            return this;
        }

        public Builder minDataRates(MinDataRates value) {
            minDataRates = value;
            return this;
        }

        /** TLS for every connection, or {@code null} for plaintext. */
        public Builder tls(TlsConfig value) {
            tls = value;
            return this;
        }

        /** HTTP/2 next to HTTP/1.1, or {@code null} (default) for HTTP/1.1 only. */
        public Builder http2(Http2Config value) {
            http2 = value;
            return this;
        }

        public ServerConfig build() {
            return new ServerConfig(address, port, additionalPorts, executionMode, threadType, threadPoolSize,
                    workerQueueCapacity, selectorThreads, acceptBacklog, socketSendBuffer, maxConnections,
                    maxKeepAliveRequests, serverHeader, bufferSize, bufferPoolCapacity, limits, timeouts, minDataRates,
                    tls, http2);
        }
    }
}
