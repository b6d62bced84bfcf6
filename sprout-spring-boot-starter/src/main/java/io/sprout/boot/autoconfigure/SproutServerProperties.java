package io.sprout.boot.autoconfigure;

import io.sprout.engine.ExecutionMode;
import io.sprout.engine.ThreadType;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Sprout-specific server settings ({@code sprout.server.*}). General settings stay under {@code server.*}
 * (port, address, compression, sessions, {@code max-http-request-header-size}, ...).
 */
@ConfigurationProperties("sprout.server")
public class SproutServerProperties {

    /**
     * How a worker moves a request's bytes: 'nio' (non-blocking, waiting on the event loop when the socket would
     * block) or 'hybrid' (once the worker would wait, the socket in blocking mode for the rest of the request).
     * Selector event loops wait for the next request in both.
     */
    private ExecutionMode executionMode = ExecutionMode.NIO;

    /**
     * Threads that run handlers: 'platform' (a fixed pool) or 'virtual' (one virtual thread per request).
     * Defaults to 'virtual' when spring.threads.virtual.enabled=true, else 'platform'.
     */
    private ThreadType threadType;

    /**
     * Platform worker threads in the fixed pool; ignored for virtual threads. Defaults to 200 under Spring MVC, whose
     * handlers block, and to twice the available processors, at least 4, under WebFlux, whose handlers do not.
     */
    private Integer threadPoolSize;

    /** Requests that may wait for a platform worker; beyond it the server answers 503. */
    private int workerQueueCapacity = 10_000;

    /** Selector event loops, in either execution mode. Defaults to the number of available processors. */
    private Integer selectorThreads;

    /**
     * The listen backlog: connections the OS queues before the server accepts them. Defaults to the kernel's limit
     * (net.core.somaxconn on Linux; 4096 where it cannot be read), which caps any larger value.
     */
    private Integer acceptBacklog;

    /**
     * Kernel send buffer (SO_SNDBUF) of each connection; 0 leaves it to the OS and its auto-tuning (up to 4 MB per
     * connection on Linux). Bounds the kernel memory and CPU a slow or stalled reader costs; Linux doubles the value
     * and caps it at net.core.wmem_max. A single download gets about this many bytes in flight per round trip.
     */
    private DataSize socketSendBuffer = DataSize.ofKilobytes(512);

    /**
     * Open connections the server keeps. At the limit a new connection is still accepted: the oldest idle keep-alive
     * connection is closed to make room, else the oldest incomplete request head; with neither the new client gets
     * 503 at once. Defaults to nine tenths of the process's open-file limit (8192 where the JDK cannot tell it).
     */
    private Integer maxConnections;

    /** Requests served on one connection before it is closed; -1 for no limit. */
    private int maxKeepAliveRequests = -1;

    /**
     * Absolute deadline for a whole request head (slowloris protection): a new connection's first head counts from
     * the accept, a later one from its first byte; then 408 and close.
     */
    private Duration requestHeadTimeout = Duration.ofSeconds(10);

    /** How long a keep-alive connection may stay idle between requests. */
    private Duration idleTimeout = Duration.ofSeconds(30);

    /** The longest wait for request body bytes while a handler reads. */
    private Duration bodyReadTimeout = Duration.ofSeconds(30);

    /** The longest a response write may wait for a slow client. */
    private Duration writeTimeout = Duration.ofSeconds(30);

    /**
     * With server.ssl enabled: the longest a client may take from connecting to a completed TLS handshake before
     * it is closed.
     */
    private Duration tlsHandshakeTimeout = Duration.ofSeconds(10);

    /** Absolute deadline for a whole request body, from the first wait for its bytes; then 408. 0 for none. */
    private Duration requestBodyTimeout = Duration.ZERO;

    /** Least average rate of a request head in bytes per second, once its grace period has passed; 0 for none. */
    private long minHeadDataRate = 240;

    /** How long a request head may take before its minimum rate applies. */
    private Duration minHeadDataRateGracePeriod = Duration.ofSeconds(5);

    /**
     * Least average rate of a request body in bytes per second, counting only time spent waiting for the client,
     * once its grace period has passed; then 408. 0 for none.
     */
    private long minBodyDataRate = 240;

    /** How long a request body may take before its minimum rate applies. */
    private Duration minBodyDataRateGracePeriod = Duration.ofSeconds(5);

    /** Default timeout of asynchronous requests (Servlet AsyncContext) when the application sets none. */
    private Duration asyncTimeout = Duration.ofSeconds(30);

    /**
     * Whether TRACE requests reach the application, which then echoes them (Servlet's default doTrace). When false,
     * they get 405 with an Allow header before any filter or servlet sees them, as on Tomcat and Jetty.
     */
    private boolean allowTrace;

    /** Longest accepted request line (method, target, version); longer ones get 414. */
    private DataSize maxRequestLineLength = DataSize.ofKilobytes(8);

    /** Most header fields accepted in one request; more get 431. */
    private int maxHeaderCount = 100;

    /** Largest accepted request body; larger declared bodies get 413. -1 for no limit. */
    private DataSize maxRequestBodySize = DataSize.ofBytes(-1);

    /** Size of each pooled I/O buffer. */
    private DataSize bufferSize = DataSize.ofKilobytes(16);

    /** Idle buffers the pool keeps for reuse. */
    private int bufferPoolCapacity = 1024;

    private final Accesslog accesslog = new Accesslog();

    private final Websocket websocket = new Websocket();

    private final Http2 http2 = new Http2();

    private final WarmUp warmUp = new WarmUp();

    public ExecutionMode getExecutionMode() {
        return executionMode;
    }

    public void setExecutionMode(ExecutionMode executionMode) {
        this.executionMode = executionMode;
    }

    public ThreadType getThreadType() {
        return threadType;
    }

    public void setThreadType(ThreadType threadType) {
        this.threadType = threadType;
    }

    public Integer getThreadPoolSize() {
        return threadPoolSize;
    }

    public void setThreadPoolSize(Integer threadPoolSize) {
        this.threadPoolSize = threadPoolSize;
    }

    public int getWorkerQueueCapacity() {
        return workerQueueCapacity;
    }

    public void setWorkerQueueCapacity(int workerQueueCapacity) {
        this.workerQueueCapacity = workerQueueCapacity;
    }

    public Integer getSelectorThreads() {
        return selectorThreads;
    }

    public void setSelectorThreads(Integer selectorThreads) {
        this.selectorThreads = selectorThreads;
    }

    public Integer getAcceptBacklog() {
        return acceptBacklog;
    }

    public void setAcceptBacklog(Integer acceptBacklog) {
        this.acceptBacklog = acceptBacklog;
    }

    public DataSize getSocketSendBuffer() {
        return socketSendBuffer;
    }

    public void setSocketSendBuffer(DataSize socketSendBuffer) {
        this.socketSendBuffer = socketSendBuffer;
    }

    public Integer getMaxConnections() {
        return maxConnections;
    }

    public void setMaxConnections(Integer maxConnections) {
        this.maxConnections = maxConnections;
    }

    public int getMaxKeepAliveRequests() {
        return maxKeepAliveRequests;
    }

    public void setMaxKeepAliveRequests(int maxKeepAliveRequests) {
        this.maxKeepAliveRequests = maxKeepAliveRequests;
    }

    public Duration getRequestHeadTimeout() {
        return requestHeadTimeout;
    }

    public void setRequestHeadTimeout(Duration requestHeadTimeout) {
        this.requestHeadTimeout = requestHeadTimeout;
    }

    public Duration getIdleTimeout() {
        return idleTimeout;
    }

    public void setIdleTimeout(Duration idleTimeout) {
        this.idleTimeout = idleTimeout;
    }

    public Duration getBodyReadTimeout() {
        return bodyReadTimeout;
    }

    public void setBodyReadTimeout(Duration bodyReadTimeout) {
        this.bodyReadTimeout = bodyReadTimeout;
    }

    public Duration getWriteTimeout() {
        return writeTimeout;
    }

    public void setWriteTimeout(Duration writeTimeout) {
        this.writeTimeout = writeTimeout;
    }

    public Duration getTlsHandshakeTimeout() {
        return tlsHandshakeTimeout;
    }

    public void setTlsHandshakeTimeout(Duration tlsHandshakeTimeout) {
        this.tlsHandshakeTimeout = tlsHandshakeTimeout;
    }

    public Duration getRequestBodyTimeout() {
        return requestBodyTimeout;
    }

    public void setRequestBodyTimeout(Duration requestBodyTimeout) {
        this.requestBodyTimeout = requestBodyTimeout;
    }

    public long getMinHeadDataRate() {
        return minHeadDataRate;
    }

    public void setMinHeadDataRate(long minHeadDataRate) {
        this.minHeadDataRate = minHeadDataRate;
    }

    public Duration getMinHeadDataRateGracePeriod() {
        return minHeadDataRateGracePeriod;
    }

    public void setMinHeadDataRateGracePeriod(Duration minHeadDataRateGracePeriod) {
        this.minHeadDataRateGracePeriod = minHeadDataRateGracePeriod;
    }

    public long getMinBodyDataRate() {
        return minBodyDataRate;
    }

    public void setMinBodyDataRate(long minBodyDataRate) {
        this.minBodyDataRate = minBodyDataRate;
    }

    public Duration getMinBodyDataRateGracePeriod() {
        return minBodyDataRateGracePeriod;
    }

    public void setMinBodyDataRateGracePeriod(Duration minBodyDataRateGracePeriod) {
        this.minBodyDataRateGracePeriod = minBodyDataRateGracePeriod;
    }

    public Duration getAsyncTimeout() {
        return asyncTimeout;
    }

    public void setAsyncTimeout(Duration asyncTimeout) {
        this.asyncTimeout = asyncTimeout;
    }

    public boolean isAllowTrace() {
        return allowTrace;
    }

    public void setAllowTrace(boolean allowTrace) {
        this.allowTrace = allowTrace;
    }

    public DataSize getMaxRequestLineLength() {
        return maxRequestLineLength;
    }

    public void setMaxRequestLineLength(DataSize maxRequestLineLength) {
        this.maxRequestLineLength = maxRequestLineLength;
    }

    public int getMaxHeaderCount() {
        return maxHeaderCount;
    }

    public void setMaxHeaderCount(int maxHeaderCount) {
        this.maxHeaderCount = maxHeaderCount;
    }

    public DataSize getMaxRequestBodySize() {
        return maxRequestBodySize;
    }

    public void setMaxRequestBodySize(DataSize maxRequestBodySize) {
        this.maxRequestBodySize = maxRequestBodySize;
    }

    public DataSize getBufferSize() {
        return bufferSize;
    }

    public void setBufferSize(DataSize bufferSize) {
        this.bufferSize = bufferSize;
    }

    public int getBufferPoolCapacity() {
        return bufferPoolCapacity;
    }

    public void setBufferPoolCapacity(int bufferPoolCapacity) {
        this.bufferPoolCapacity = bufferPoolCapacity;
    }

    public Accesslog getAccesslog() {
        return accesslog;
    }

    public Websocket getWebsocket() {
        return websocket;
    }

    public Http2 getHttp2() {
        return http2;
    }

    public WarmUp getWarmUp() {
        return warmUp;
    }

    /** The access log, written through SLF4J to the logger {@code io.sprout.accesslog} at INFO. */
    public static class Accesslog {

        /** Whether to write an access log line per request. */
        private boolean enabled;

        /**
         * Line format: 'common', 'combined', or codes %h %a %l %u %t %r %m %U %q %H %s %b %B %D %T %{Header}i.
         */
        private String format = "common";

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getFormat() {
            return format;
        }

        public void setFormat(String format) {
            this.format = format;
        }
    }

    /**
     * WebSocket connections (Jakarta WebSocket endpoints, Spring's {@code @EnableWebSocket} and STOMP): the limits
     * of the engine's RFC 6455 connections and the Jakarta container's defaults.
     */
    public static class Websocket {

        /**
         * A ceiling on one frame's payload whatever the message limits: a longer frame closes the connection with
         * 1009. Not set by default: a frame is limited only by the message limit that applies to it.
         */
        private DataSize maxFrameSize;

        /**
         * The Jakarta container's default largest text message (bytes of UTF-8); longer ones close the session with
         * 1009. A ServletServerContainerFactoryBean, setDefaultMaxTextMessageBufferSize, @OnMessage(maxMessageSize)
         * or Session.setMaxTextMessageBufferSize replaces it.
         */
        private DataSize maxTextMessageSize = DataSize.ofKilobytes(64);

        /** The same for binary messages. */
        private DataSize maxBinaryMessageSize = DataSize.ofKilobytes(64);

        /** How long a client may send nothing before its connection is closed with 1001; 0 for no limit. */
        private Duration idleTimeout = Duration.ZERO;

        /** How long to wait for the client's Close after sending one, before dropping the connection. */
        private Duration closeTimeout = Duration.ofSeconds(5);

        /** Most bytes of outgoing frames queued for a client that does not read; sends beyond it fail. */
        private DataSize outboundQueueLimit = DataSize.ofMegabytes(4);

        /** Whether permessage-deflate (RFC 7692) is agreed when a client offers it. */
        private boolean permessageDeflate = true;

        /** Default send timeout of asynchronous sends (RemoteEndpoint.Async); 0 for none. */
        private Duration asyncSendTimeout = Duration.ZERO;

        public DataSize getMaxFrameSize() {
            return maxFrameSize;
        }

        public void setMaxFrameSize(DataSize maxFrameSize) {
            this.maxFrameSize = maxFrameSize;
        }

        public DataSize getMaxTextMessageSize() {
            return maxTextMessageSize;
        }

        public void setMaxTextMessageSize(DataSize maxTextMessageSize) {
            this.maxTextMessageSize = maxTextMessageSize;
        }

        public DataSize getMaxBinaryMessageSize() {
            return maxBinaryMessageSize;
        }

        public void setMaxBinaryMessageSize(DataSize maxBinaryMessageSize) {
            this.maxBinaryMessageSize = maxBinaryMessageSize;
        }

        public Duration getIdleTimeout() {
            return idleTimeout;
        }

        public void setIdleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
        }

        public Duration getCloseTimeout() {
            return closeTimeout;
        }

        public void setCloseTimeout(Duration closeTimeout) {
            this.closeTimeout = closeTimeout;
        }

        public DataSize getOutboundQueueLimit() {
            return outboundQueueLimit;
        }

        public void setOutboundQueueLimit(DataSize outboundQueueLimit) {
            this.outboundQueueLimit = outboundQueueLimit;
        }

        public boolean isPermessageDeflate() {
            return permessageDeflate;
        }

        public void setPermessageDeflate(boolean permessageDeflate) {
            this.permessageDeflate = permessageDeflate;
        }

        public Duration getAsyncSendTimeout() {
            return asyncSendTimeout;
        }

        public void setAsyncSendTimeout(Duration asyncSendTimeout) {
            this.asyncSendTimeout = asyncSendTimeout;
        }
    }

    /**
     * HTTP/2 connections, used when server.http2.enabled=true: what the server advertises in its SETTINGS and the
     * per-connection rate controls against HTTP/2 floods. Ignored while HTTP/2 is off.
     */
    public static class Http2 {

        /** Streams one client may have open at once; excess streams are refused with REFUSED_STREAM. */
        private int maxConcurrentStreams = 100;

        /**
         * Streams of one connection whose requests run at once, suspended or not (Tomcat's setting of the same
         * name); the connection's other open streams wait, holding only their request heads, so one client cannot
         * hold more workers or response buffers than this.
         */
        private int maxConcurrentStreamExecution = 20;

        /**
         * Each stream's receive window: request body bytes a client may send on one stream before the handler reads
         * them. At least 65535 bytes (the RFC's initial window).
         */
        private DataSize initialWindowSize = DataSize.ofKilobytes(512);

        /**
         * The connection's receive window: the most request body bytes one connection can make the server hold for
         * handlers that have not read them yet. At least 65535 bytes.
         */
        private DataSize connectionWindowSize = DataSize.ofMegabytes(1);

        /** The largest frame payload a client may send, between 16384 bytes (the RFC's default) and 16 MB - 1. */
        private DataSize maxFrameSize = DataSize.ofBytes(16_384);

        /** The HPACK dynamic table the client's header encoder may fill, at most 1 MB. */
        private DataSize headerTableSize = DataSize.ofBytes(4096);

        /**
         * Largest header list of a request (RFC 9113 SETTINGS_MAX_HEADER_LIST_SIZE, names and values plus 32 bytes
         * per field); a larger one gets 431. Defaults to server.max-http-request-header-size, the HTTP/1.1 limit.
         */
        private DataSize maxHeaderListSize;

        /** Entries accepted in one SETTINGS frame (there are 7 kinds); more end the connection. */
        private int maxSettingsEntries = 32;

        /**
         * Largest body of a request that asks for Upgrade: h2c, held until it becomes stream 1; larger ones get 413.
         */
        private DataSize maxUpgradeBodySize = DataSize.ofKilobytes(64);

        /**
         * Streams reset by either side that one connection may cause per rate-window (Rapid Reset, CVE-2023-44487,
         * and MadeYouReset, CVE-2025-8671); beyond, GOAWAY ENHANCE_YOUR_CALM.
         */
        private int maxResets = 200;

        /**
         * PING, SETTINGS, PRIORITY, tiny WINDOW_UPDATE and unknown frames one connection may send per rate-window
         * (the 2019 ping, settings and resource-loop floods); beyond, GOAWAY ENHANCE_YOUR_CALM.
         */
        private int maxControlFrames = 1000;

        /**
         * DATA, HEADERS and CONTINUATION frames without payload that end nothing, per rate-window (CVE-2019-9518);
         * beyond, GOAWAY ENHANCE_YOUR_CALM.
         */
        private int maxEmptyFrames = 100;

        /** The period each rate control counts over. */
        private Duration rateWindow = Duration.ofSeconds(10);

        public int getMaxConcurrentStreams() {
            return maxConcurrentStreams;
        }

        public void setMaxConcurrentStreams(int maxConcurrentStreams) {
            this.maxConcurrentStreams = maxConcurrentStreams;
        }

        public int getMaxConcurrentStreamExecution() {
            return maxConcurrentStreamExecution;
        }

        public void setMaxConcurrentStreamExecution(int maxConcurrentStreamExecution) {
            this.maxConcurrentStreamExecution = maxConcurrentStreamExecution;
        }

        public DataSize getInitialWindowSize() {
            return initialWindowSize;
        }

        public void setInitialWindowSize(DataSize initialWindowSize) {
            this.initialWindowSize = initialWindowSize;
        }

        public DataSize getConnectionWindowSize() {
            return connectionWindowSize;
        }

        public void setConnectionWindowSize(DataSize connectionWindowSize) {
            this.connectionWindowSize = connectionWindowSize;
        }

        public DataSize getMaxFrameSize() {
            return maxFrameSize;
        }

        public void setMaxFrameSize(DataSize maxFrameSize) {
            this.maxFrameSize = maxFrameSize;
        }

        public DataSize getHeaderTableSize() {
            return headerTableSize;
        }

        public void setHeaderTableSize(DataSize headerTableSize) {
            this.headerTableSize = headerTableSize;
        }

        public DataSize getMaxHeaderListSize() {
            return maxHeaderListSize;
        }

        public void setMaxHeaderListSize(DataSize maxHeaderListSize) {
            this.maxHeaderListSize = maxHeaderListSize;
        }

        public int getMaxSettingsEntries() {
            return maxSettingsEntries;
        }

        public void setMaxSettingsEntries(int maxSettingsEntries) {
            this.maxSettingsEntries = maxSettingsEntries;
        }

        public DataSize getMaxUpgradeBodySize() {
            return maxUpgradeBodySize;
        }

        public void setMaxUpgradeBodySize(DataSize maxUpgradeBodySize) {
            this.maxUpgradeBodySize = maxUpgradeBodySize;
        }

        public int getMaxResets() {
            return maxResets;
        }

        public void setMaxResets(int maxResets) {
            this.maxResets = maxResets;
        }

        public int getMaxControlFrames() {
            return maxControlFrames;
        }

        public void setMaxControlFrames(int maxControlFrames) {
            this.maxControlFrames = maxControlFrames;
        }

        public int getMaxEmptyFrames() {
            return maxEmptyFrames;
        }

        public void setMaxEmptyFrames(int maxEmptyFrames) {
            this.maxEmptyFrames = maxEmptyFrames;
        }

        public Duration getRateWindow() {
            return rateWindow;
        }

        public void setRateWindow(Duration rateWindow) {
            this.rateWindow = rateWindow;
        }
    }

    /**
     * Requests served through the whole stack before the ports open to clients, so the JIT has compiled the hot path
     * before the first user arrives (and before Boot's readiness turns ACCEPTING_TRAFFIC). Only idempotent GETs
     * belong here: they reach the application like any request.
     */
    public static class WarmUp {

        /** Whether to warm up before opening the ports. */
        private boolean enabled;

        /** Paths to GET in turn, each starting with "/", optionally with a query. */
        private List<String> paths = new ArrayList<>(List.of("/"));

        /** Requests to send in all. */
        private int requests = 2000;

        /** Requests in flight at once. */
        private int concurrency = 8;

        /** The longest the warm-up may take; start-up then goes on whatever was answered. */
        private Duration timeout = Duration.ofSeconds(10);

        /**
         * Whether to go on after the requests until the JIT compiled for less than a tenth of the last second (the
         * time limit still applies): the first clients then meet compiled code, at the cost of a later start.
         */
        private boolean untilCompiled;

        /**
         * With until-compiled, the share of the time requests are sent while the JIT compiles, more than 0 and at
         * most 1 (the clients send in that share of every 20 ms and rest for the rest): the compiler shares the
         * CPUs with the requests, and on few CPUs it settles sooner when they leave it part of the time.
         */
        private double loadShare = 0.5;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public List<String> getPaths() {
            return paths;
        }

        public void setPaths(List<String> paths) {
            this.paths = paths;
        }

        public int getRequests() {
            return requests;
        }

        public void setRequests(int requests) {
            this.requests = requests;
        }

        public int getConcurrency() {
            return concurrency;
        }

        public void setConcurrency(int concurrency) {
            this.concurrency = concurrency;
        }

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }

        public boolean isUntilCompiled() {
            return untilCompiled;
        }

        public void setUntilCompiled(boolean untilCompiled) {
            this.untilCompiled = untilCompiled;
        }

        public double getLoadShare() {
            return loadShare;
        }

        public void setLoadShare(double loadShare) {
            this.loadShare = loadShare;
        }
    }
}
