package io.sprout.engine.http;

/**
 * The limits the codec enforces, in bytes or counts.
 *
 * @param maxRequestLineLength longest request line, without CRLF (414 beyond)
 * @param maxHeaderSectionSize largest header section: field lines with their CRLFs (431 beyond)
 * @param maxHeaderCount most field lines (431 beyond)
 * @param maxChunkLineLength longest chunk-size line including extensions (400 beyond)
 * @param maxTrailerSize largest trailer section (400 beyond)
 *
 * <p>Public because exchange's {@code ServerContext} builds it from the server's configuration: the codec takes its
 * limits as a value and knows nothing of the configuration.
 */
public record ParserLimits(
        int maxRequestLineLength,
        int maxHeaderSectionSize,
        int maxHeaderCount,
        int maxChunkLineLength,
        int maxTrailerSize) {

    public static final ParserLimits DEFAULT = new ParserLimits(8192, 8192, 100, 4096, 8192);
}
