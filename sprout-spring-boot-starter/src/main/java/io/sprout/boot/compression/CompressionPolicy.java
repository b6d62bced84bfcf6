package io.sprout.boot.compression;

import io.sprout.engine.Headers;
import io.sprout.engine.HttpResponse;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

/**
 * When a response is gzip-compressed ({@code server.compression.*}): the client accepts gzip, its user agent is
 * not excluded (regular expressions, as Tomcat's {@code noCompressionUserAgents}), the content type is listed
 * (parameters ignored, {@code text/*} wildcards allowed), nothing set {@code Content-Encoding} already, the
 * status carries a body and is not 206 (a {@code Content-Range} counts bytes of the uncompressed resource), and the
 * length is unknown (streamed) or at least {@code minResponseSize}.
 *
 * <p>One policy for every kind of application: the servlet layer and the reactive adapter both call
 * {@link #compress} as the engine commits a response.
 *
 * @param minResponseSize bytes below which a response of known length is sent as is
 * @param mimeTypes content types to compress
 * @param excludedUserAgents user-agent patterns never sent compressed responses
 */
public record CompressionPolicy(long minResponseSize, List<String> mimeTypes, List<Pattern> excludedUserAgents) {

    public CompressionPolicy {
        mimeTypes = mimeTypes.stream().map(type -> type.trim().toLowerCase(Locale.ROOT)).toList();
        excludedUserAgents = List.copyOf(excludedUserAgents);
    }

    private static final int COMPRESSION_BUFFER = 8192;

    /**
     * Compresses the body of the engine's {@code response} if this policy applies to it: to be called as the
     * response commits (a {@link HttpResponse.CommitListener}), once its status and headers are final. Sets
     * {@code Content-Encoding: gzip}, adds {@code Vary: Accept-Encoding} and weakens a strong {@code ETag} (the gzip
     * bytes are another representation: a strong tag would promise byte equality, as Tomcat reasons too).
     *
     * @param length the body's length when known, else -1
     * @return whether the body is compressed
     */
    public boolean compress(HttpResponse response, String acceptEncoding, String userAgent, long length) {
        Headers headers = response.headers();
        if (!applies(acceptEncoding, userAgent, headers.get("Content-Type"), headers.get("Content-Encoding"),
                response.status(), length)) {
            return false;
        }
        headers.set("Content-Encoding", "gzip");
        if (!headers.containsToken("Vary", "Accept-Encoding")) {
            headers.add("Vary", "Accept-Encoding");
        }
        String etag = headers.get("ETag");
        if (etag != null && !etag.startsWith("W/")) {
            headers.set("ETag", "W/" + etag);
        }
        response.encodeBody(CompressionPolicy::gzip);
        return true;
    }

    boolean applies(String acceptEncoding, String userAgent, String contentType, String contentEncoding,
            int status, long length) {
        if (acceptEncoding == null || !acceptsGzip(acceptEncoding) || contentEncoding != null) {
            return false;
        }
        if (status < 200 || status == 204 || status == 206 || status == 304
                || (length >= 0 && length < minResponseSize)) {
            return false;
        }
        if (contentType == null || !mimeTypeListed(contentType)) {
            return false;
        }
        return userAgent == null || excludedUserAgents.stream().noneMatch(p -> p.matcher(userAgent).matches());
    }

    private boolean mimeTypeListed(String contentType) {
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim()
                .toLowerCase(Locale.ROOT);
        for (String listed : mimeTypes) {
            if (listed.equals(type) || (listed.endsWith("/*")
                    && type.startsWith(listed.substring(0, listed.length() - 1)))) {
                return true;
            }
        }
        return false;
    }

    private static boolean acceptsGzip(String acceptEncoding) {
        for (String coding : acceptEncoding.split(",")) {
            String[] parts = coding.split(";");
            String name = parts[0].trim();
            if (name.equalsIgnoreCase("gzip") || name.equals("*")) {
                return parts.length < 2 || !parts[1].replace(" ", "").matches("q=0(\\.0*)?");
            }
        }
        return false;
    }

    private static OutputStream gzip(OutputStream framed) {
        try {
            // syncFlush: a flush of the response sends what was compressed so far (streaming responses).
            return new GZIPOutputStream(framed, COMPRESSION_BUFFER, true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
