package io.sprout.boot.servlet.http;

import io.sprout.engine.HttpRequest;
import io.sprout.engine.RequestBodyException;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.UnsupportedEncodingException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * How the application reads a request's body: as a stream or as a reader, never both (Servlet 6.1 §3.12), in the
 * character encoding it set or the request declares. The stream is made on first use; most requests never read.
 */
final class BodyInput {

    private enum Mode { NONE, STREAM, READER }

    private final SproutRequest request;
    private final HttpRequest engine;
    private final String defaultEncoding;
    private Mode mode = Mode.NONE;
    private ServletInput stream;
    private BufferedReader reader;
    private String characterEncoding;

    /** @param defaultEncoding the context's request encoding, or {@code null} */
    BodyInput(SproutRequest request, String defaultEncoding) {
        this.request = request;
        this.engine = request.engineRequest();
        this.defaultEncoding = defaultEncoding;
    }

    /** The encoding set, else the Content-Type's charset, else the context's default; or {@code null}. */
    String characterEncoding() {
        if (characterEncoding != null) {
            return characterEncoding;
        }
        String fromType = charsetParameter(engine.headers().get("Content-Type"));
        return fromType != null ? fromType : defaultEncoding;
    }

    private static String charsetParameter(String contentType) {
        if (contentType == null) {
            return null;
        }
        for (String parameter : contentType.split(";")) {
            String trimmed = parameter.trim();
            if (trimmed.toLowerCase(Locale.ROOT).startsWith("charset=")) {
                return trimmed.substring("charset=".length()).replace("\"", "");
            }
        }
        return null;
    }

    /** Ignored once the reader exists: it decodes with the encoding it was made with. */
    void characterEncoding(String encoding) throws UnsupportedEncodingException {
        if (reader != null) {
            return;
        }
        if (!Charset.isSupported(encoding)) {
            throw new UnsupportedEncodingException(encoding);
        }
        characterEncoding = encoding;
    }

    /** The encoding as a charset: ISO-8859-1 when none is known or it is not supported (Servlet's default). */
    Charset charset() {
        String encoding = characterEncoding();
        try {
            return encoding == null ? StandardCharsets.ISO_8859_1 : Charset.forName(encoding);
        } catch (IllegalArgumentException e) {
            return StandardCharsets.ISO_8859_1;
        }
    }

    ServletInput stream() {
        if (mode == Mode.READER) {
            throw new IllegalStateException("getReader() has already been called for this request");
        }
        mode = Mode.STREAM;
        return body();
    }

    BufferedReader reader() {
        if (mode == Mode.STREAM) {
            throw new IllegalStateException("getInputStream() has already been called for this request");
        }
        if (reader == null) {
            reader = new BufferedReader(new InputStreamReader(body(), charset()));
        }
        mode = Mode.READER;
        return reader;
    }

    /** Whether the application has asked for neither the stream nor the reader. */
    boolean untouched() {
        return mode == Mode.NONE;
    }

    /**
     * The stream for the container's own parsing (multipart parts): taken as the application's stream when
     * {@code claim} is set, so that a later {@code getReader()} fails as it would had the application read it.
     */
    ServletInput forContainer(boolean claim) {
        if (claim) {
            mode = Mode.STREAM;
        }
        return body();
    }

    private ServletInput body() {
        if (stream == null) {
            stream = new ServletInput(engine.body(), request::readListenerExchange, request::inContainer);
        }
        return stream;
    }

    /** The engine's refusal of the body that a read threw, however the application handled it; or null. */
    RequestBodyException rejection() {
        return stream == null ? null : stream.rejection();
    }

    /** Non-blocking reading failed: a {@link jakarta.servlet.ReadListener} hears {@code onError}. */
    void failed(Throwable cause) {
        if (stream != null) {
            stream.failed(cause);
        }
    }

    /** Whether the application has read the body to its end. */
    boolean finished() {
        return stream != null && stream.isFinished();
    }
}
