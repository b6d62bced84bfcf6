package io.sprout.engine;

import java.time.Duration;

/**
 * HTTP/2 (RFC 9113) on the server's ports: over TLS when ALPN agrees on {@code h2}, and on a plaintext port by prior
 * knowledge or by {@code Upgrade: h2c}. A server without one ({@link ServerConfig#http2()} {@code null}) speaks
 * HTTP/1.1 only and offers none of them.
 *
 * <table>
 *   <caption>What the server advertises and enforces</caption>
 *   <tr><th>setting</th><th>default</th><th>why</th></tr>
 *   <tr><td>{@code maxConcurrentStreams}</td><td>100</td><td>as Tomcat, Jetty and Netty; enforced from the first
 *       frame, before the client acknowledges it (excess streams: {@code REFUSED_STREAM})</td></tr>
 *   <tr><td>{@code maxConcurrentStreamExecution}</td><td>20</td><td>as Tomcat: the streams of one connection whose
 *       exchanges run (or are suspended) at once; the connection's other streams wait, holding only their request
 *       heads, so one client cannot hold 100 workers or 100 response buffers (streams stalled on zero windows, slow
 *       handlers)</td></tr>
 *   <tr><td>{@code initialWindowSize}</td><td>512 KiB</td><td>a stream's receive window: an upload of one stream
 *       is not held to RFC's 64 KiB per round trip (64 KiB at a 10 ms round trip caps it at 6.5 MB/s)</td></tr>
 *   <tr><td>{@code connectionWindowSize}</td><td>1 MiB</td><td>the connection's receive window: the most request
 *       body bytes one connection can make the server hold for handlers that have not read them yet</td></tr>
 *   <tr><td>{@code maxFrameSize}</td><td>16,384</td><td>the RFC's default, the largest frame a client may send</td></tr>
 *   <tr><td>{@code headerTableSize}</td><td>4,096</td><td>the HPACK table the client's encoder may fill</td></tr>
 *   <tr><td>{@code maxHeaderListSize}</td><td>8,192</td><td>the HTTP/1.1 header limit; a larger list: 431</td></tr>
 *   <tr><td>{@code maxSettingsEntries}</td><td>32</td><td>entries in one SETTINGS frame (there are 7 kinds)</td></tr>
 *   <tr><td>{@code maxUpgradeBodySize}</td><td>64 KiB</td><td>the body of an {@code Upgrade: h2c} request, held
 *       until it becomes stream 1; larger: 413</td></tr>
 * </table>
 *
 * <p>Rate controls, each counted per connection over {@code rateWindow} (10 s); past its budget the connection ends
 * with GOAWAY {@code ENHANCE_YOUR_CALM}:
 * {@code maxResets} (200) streams reset by either side — the Rapid Reset (CVE-2023-44487) and MadeYouReset
 * (CVE-2025-8671) floods; {@code maxControlFrames} (1,000) PING, SETTINGS, PRIORITY, tiny WINDOW_UPDATE and unknown
 * frames — the ping, settings and resource-loop floods and data dribble of 2019 (CVE-2019-9511, -9512, -9515,
 * -9516); {@code maxEmptyFrames} (100) DATA, HEADERS and CONTINUATION frames without payload that end nothing
 * (CVE-2019-9518).
 */
public record Http2Config(int maxConcurrentStreams, int maxConcurrentStreamExecution, int initialWindowSize,
        int connectionWindowSize, int maxFrameSize, int headerTableSize, int maxHeaderListSize, int maxSettingsEntries,
        int maxUpgradeBodySize, int maxResets, int maxControlFrames, int maxEmptyFrames, Duration rateWindow) {

    public static final Http2Config DEFAULT = new Http2Config(100, 20, 512 * 1024, 1024 * 1024, 16_384, 4096, 8192,
            32, 64 * 1024, 200, 1000, 100, Duration.ofSeconds(10));

    public Http2Config {
        Check.range("maxConcurrentStreams", maxConcurrentStreams, 1, 1 << 20);
        Check.range("maxConcurrentStreamExecution", maxConcurrentStreamExecution, 1, 1 << 20);
        Check.range("initialWindowSize", initialWindowSize, 65_535, Integer.MAX_VALUE);
        Check.range("connectionWindowSize", connectionWindowSize, 65_535, Integer.MAX_VALUE);
        Check.range("maxFrameSize", maxFrameSize, 16_384, 16_777_215);
        Check.range("headerTableSize", headerTableSize, 0, 1 << 20);
        Check.range("maxHeaderListSize", maxHeaderListSize, 64, 1 << 20);
        Check.range("maxSettingsEntries", maxSettingsEntries, 7, 1024);
        Check.range("maxUpgradeBodySize", maxUpgradeBodySize, 0, 1 << 24);
        Check.range("maxResets", maxResets, 1, Integer.MAX_VALUE);
        Check.range("maxControlFrames", maxControlFrames, 1, Integer.MAX_VALUE);
        Check.range("maxEmptyFrames", maxEmptyFrames, 1, Integer.MAX_VALUE);
        Check.positive("rateWindow", rateWindow);
    }

    public Http2Config withMaxConcurrentStreams(int value) {
        return new Http2Config(value, maxConcurrentStreamExecution, initialWindowSize, connectionWindowSize,
                maxFrameSize, headerTableSize, maxHeaderListSize, maxSettingsEntries, maxUpgradeBodySize, maxResets,
                maxControlFrames, maxEmptyFrames, rateWindow);
    }

    public Http2Config withMaxConcurrentStreamExecution(int value) {
        return new Http2Config(maxConcurrentStreams, value, initialWindowSize, connectionWindowSize, maxFrameSize,
                headerTableSize, maxHeaderListSize, maxSettingsEntries, maxUpgradeBodySize, maxResets,
                maxControlFrames, maxEmptyFrames, rateWindow);
    }

    public Http2Config withWindows(int stream, int connection) {
        return new Http2Config(maxConcurrentStreams, maxConcurrentStreamExecution, stream, connection, maxFrameSize,
                headerTableSize, maxHeaderListSize, maxSettingsEntries, maxUpgradeBodySize, maxResets,
                maxControlFrames, maxEmptyFrames, rateWindow);
    }

    public Http2Config withMaxHeaderListSize(int value) {
        return new Http2Config(maxConcurrentStreams, maxConcurrentStreamExecution, initialWindowSize,
                connectionWindowSize, maxFrameSize, headerTableSize, value, maxSettingsEntries, maxUpgradeBodySize,
                maxResets, maxControlFrames, maxEmptyFrames, rateWindow);
    }

    public Http2Config withRateLimits(int resets, int controlFrames, int emptyFrames, Duration window) {
        return new Http2Config(maxConcurrentStreams, maxConcurrentStreamExecution, initialWindowSize,
                connectionWindowSize, maxFrameSize, headerTableSize, maxHeaderListSize, maxSettingsEntries,
                maxUpgradeBodySize, resets, controlFrames, emptyFrames, window);
    }
}
