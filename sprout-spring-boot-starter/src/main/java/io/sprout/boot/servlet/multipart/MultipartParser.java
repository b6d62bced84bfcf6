package io.sprout.boot.servlet.multipart;

import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.http.Part;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Streams a {@code multipart/form-data} body (RFC 7578) into {@link Part}s, honouring a
 * {@link MultipartConfigElement}: a part larger than {@code maxFileSize} or a body larger than
 * {@code maxRequestSize} fails with {@link IllegalStateException} (whose message Spring recognises as "upload too
 * large"), and a part past {@code fileSizeThreshold} is spilled to a temporary file under the location.
 *
 * <p>The boundary search is a streaming KMP match, so the body is never held whole in memory.
 */
public final class MultipartParser {

    private static final int MAX_PART_HEADER_BYTES = 16 * 1024;

    private final MultipartConfigElement config;
    private final Path location;
    private final Charset headerCharset;

    /**
     * @param location directory for spilled parts (the config's location resolved against the context temp dir)
     * @param headerCharset charset of part headers and field names (the request's, else UTF-8)
     */
    public MultipartParser(MultipartConfigElement config, Path location, Charset headerCharset) {
        this.config = config;
        this.location = location;
        this.headerCharset = headerCharset == null ? StandardCharsets.UTF_8 : headerCharset;
    }

    /** The boundary parameter of a multipart content type, or {@code null}. */
    public static String boundary(String contentType) {
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/")) {
            return null;
        }
        for (String parameter : contentType.split(";")) {
            String trimmed = parameter.trim();
            if (trimmed.toLowerCase(Locale.ROOT).startsWith("boundary=")) {
                String value = trimmed.substring("boundary=".length());
                return value.startsWith("\"") && value.endsWith("\"") && value.length() > 1
                        ? value.substring(1, value.length() - 1) : value;
            }
        }
        return null;
    }

    /**
     * @param declaredLength the request's Content-Length, or -1; checked up front against maxRequestSize
     */
    public List<Part> parse(InputStream body, String boundary, long declaredLength) throws IOException {
        long maxRequest = config.getMaxRequestSize();
        if (maxRequest > 0 && declaredLength > maxRequest) {
            throw requestTooLarge(maxRequest);
        }
        CountingInput input = new CountingInput(body, maxRequest);
        byte[] delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        BoundaryScanner scanner = new BoundaryScanner(delimiter);
        // The first delimiter has no leading CRLF: feed one so every delimiter looks the same.
        scanner.primeWithCrLf();
        scanner.skipTo(input);
        List<Part> parts = new ArrayList<>();
        try {
            while (readAfterDelimiter(input)) {
                Map<String, List<String>> headers = readHeaders(input);
                MultipartPart part = new MultipartPart(headers, headerCharset);
                try (PartSink sink = new PartSink(config, location, part.getName())) {
                    scanner.copyTo(input, sink);
                    part.content(sink.finish());
                }
                parts.add(part);
            }
        } catch (IOException | RuntimeException e) {
            for (Part part : parts) {
                part.delete();
            }
            throw e;
        }
        return parts;
    }

    /** After a delimiter: {@code --} ends the body, CRLF starts a part (transport padding is skipped). */
    private static boolean readAfterDelimiter(InputStream input) throws IOException {
        int first = input.read();
        int second = input.read();
        if (first == '-' && second == '-') {
            return false;
        }
        while (first == ' ' || first == '\t') {
            first = second;
            second = input.read();
        }
        if (first == '\r' && second == '\n') {
            return true;
        }
        throw new IOException("Malformed multipart body: expected CRLF or '--' after a boundary");
    }

    private Map<String, List<String>> readHeaders(InputStream input) throws IOException {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int total = 0;
        while (true) {
            int b = input.read();
            if (b < 0) {
                throw new IOException("Malformed multipart body: it ends inside part headers");
            }
            if (++total > MAX_PART_HEADER_BYTES) {
                throw new IllegalStateException("Multipart part headers exceed the size limit of "
                        + MAX_PART_HEADER_BYTES + " bytes");
            }
            if (b != '\n') {
                line.write(b);
                continue;
            }
            String text = line.toString(headerCharset);
            line.reset();
            if (text.endsWith("\r")) {
                text = text.substring(0, text.length() - 1);
            }
            if (text.isEmpty()) {
                return headers;
            }
            int colon = text.indexOf(':');
            if (colon > 0) {
                headers.computeIfAbsent(text.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        key -> new ArrayList<>(1)).add(text.substring(colon + 1).trim());
            }
        }
    }

    static IllegalStateException requestTooLarge(long max) {
        return new IllegalStateException("The multipart request exceeds its maximum permitted size of " + max
                + " bytes");
    }

    /** Counts body bytes against maxRequestSize. */
    private static final class CountingInput extends InputStream {
        private final InputStream in;
        private final long max;
        private long count;

        CountingInput(InputStream in, long max) {
            this.in = in;
            this.max = max;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0 && max > 0 && ++count > max) {
                throw requestTooLarge(max);
            }
            return b;
        }
    }
}
