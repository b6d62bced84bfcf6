package io.sprout.engine;

/**
 * Size limits on what a client may send. Defaults match Tomcat, Jetty and Reactor Netty.
 *
 * <table>
 *   <caption>Limits and their answers</caption>
 *   <tr><th>limit</th><th>default</th><th>answer when exceeded</th></tr>
 *   <tr><td>{@code maxRequestLineLength}</td><td>8192 bytes</td><td>414</td></tr>
 *   <tr><td>{@code maxHeaderSectionSize}</td><td>8192 bytes (field lines, without the request line)</td><td>431</td></tr>
 *   <tr><td>{@code maxHeaderCount}</td><td>100 fields</td><td>431</td></tr>
 *   <tr><td>{@code maxRequestBodySize}</td><td>-1 (unlimited)</td><td>413 before the body is read</td></tr>
 *   <tr><td>{@code maxChunkLineLength}</td><td>4096 bytes (size and extensions)</td><td>400</td></tr>
 *   <tr><td>{@code maxTrailerSize}</td><td>8192 bytes</td><td>400</td></tr>
 *   <tr><td>{@code maxDrainSize}</td><td>1 MiB of unread body read and discarded to keep the connection</td><td>close</td></tr>
 * </table>
 */
public record HttpLimits(
        int maxRequestLineLength,
        int maxHeaderSectionSize,
        int maxHeaderCount,
        long maxRequestBodySize,
        int maxChunkLineLength,
        int maxTrailerSize,
        long maxDrainSize) {

    public static final HttpLimits DEFAULT = new HttpLimits(8192, 8192, 100, -1, 4096, 8192, 1 << 20);

    public HttpLimits {
        Check.range("maxRequestLineLength", maxRequestLineLength, 64, 1 << 20);
        Check.range("maxHeaderSectionSize", maxHeaderSectionSize, 64, 1 << 20);
        Check.range("maxHeaderCount", maxHeaderCount, 1, 10_000);
        Check.rangeOrUnlimited("maxRequestBodySize", maxRequestBodySize, 0, Long.MAX_VALUE);
        Check.range("maxChunkLineLength", maxChunkLineLength, 32, 1 << 20);
        Check.range("maxTrailerSize", maxTrailerSize, 0, 1 << 20);
        Check.range("maxDrainSize", maxDrainSize, 0, Long.MAX_VALUE);
    }

    public HttpLimits withMaxRequestLineLength(int value) {
        return new HttpLimits(value, maxHeaderSectionSize, maxHeaderCount, maxRequestBodySize, maxChunkLineLength,
                maxTrailerSize, maxDrainSize);
    }

    public HttpLimits withMaxHeaderSectionSize(int value) {
        return new HttpLimits(maxRequestLineLength, value, maxHeaderCount, maxRequestBodySize, maxChunkLineLength,
                maxTrailerSize, maxDrainSize);
    }

    public HttpLimits withMaxHeaderCount(int value) {
        return new HttpLimits(maxRequestLineLength, maxHeaderSectionSize, value, maxRequestBodySize,
                maxChunkLineLength, maxTrailerSize, maxDrainSize);
    }

    /** @param value the largest accepted body in bytes, or {@code -1} for no limit */
    public HttpLimits withMaxRequestBodySize(long value) {
        return new HttpLimits(maxRequestLineLength, maxHeaderSectionSize, maxHeaderCount, value, maxChunkLineLength,
                maxTrailerSize, maxDrainSize);
    }

    public HttpLimits withMaxDrainSize(long value) {
        return new HttpLimits(maxRequestLineLength, maxHeaderSectionSize, maxHeaderCount, maxRequestBodySize,
                maxChunkLineLength, maxTrailerSize, value);
    }
}
