package io.sprout.engine.exchange;

import io.sprout.engine.http.HeaderNames;
import io.sprout.engine.http.HttpDate;
import io.sprout.engine.http.HttpVersion;
import io.sprout.engine.http.ReasonPhrases;
import io.sprout.engine.http.ResponseHeadEncoder;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The complete responses the engine sends on its own (bad requests, timeouts, overload): a plain-text reason and
 * {@code Connection: close}, because after such an error the connection is not reused.
 *
 * <p>Public because transport's {@code HeadReader} answers a bad, late or unservable head before any exchange exists:
 * what an error answer says is the exchange's to define, the transport only writes the bytes.
 */
public final class ErrorResponses {

    private ErrorResponses() {
    }

    /** A whole error response whose body is its reason phrase, ready to write. */
    public static ByteBuffer encode(int status, HttpDate date, String serverHeader) {
        return encode(status, date, serverHeader, ReasonPhrases.of(status));
    }

    /** A whole error response with {@code text} (ASCII) as its body, ready to write. */
    public static ByteBuffer encode(int status, HttpDate date, String serverHeader, String text) {
        byte[] body = text.getBytes(StandardCharsets.US_ASCII);
        ResponseHeadEncoder encoder = new ResponseHeadEncoder().start(HttpVersion.HTTP_1_1, status)
                .field(HeaderNames.DATE, date.now());
        if (serverHeader != null) {
            encoder.field(HeaderNames.SERVER, serverHeader);
        }
        encoder.field(HeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                .field(HeaderNames.CONTENT_LENGTH, body.length)
                .field(HeaderNames.CONNECTION, "close")
                .end();
        ByteBuffer response = ByteBuffer.allocate(encoder.length() + body.length);
        response.put(encoder.bytes(), 0, encoder.length()).put(body);
        return response.flip();
    }
}
