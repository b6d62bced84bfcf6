package io.sprout.engine.exchange;

import io.sprout.engine.HttpResponse;
import io.sprout.engine.http.HeaderFields;
import io.sprout.engine.http.HeaderNames;
import io.sprout.engine.http.HttpVersion;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.http.ResponseHeadEncoder;

import java.io.OutputStream;

/**
 * The engine's {@link HttpResponse}: status and fields until commit, then the framing decision and the head.
 *
 * <p>At commit the engine owns the framing fields: a {@code Content-Length} set by the handler becomes the
 * declared length, {@code Transfer-Encoding} is dropped, and {@code Connection} is rewritten from the keep-alive
 * decision ({@code Connection: close} from the handler is honoured).
 */
final class ExchangeResponse implements HttpResponse {

    private final HttpConnection connection;
    private final RequestHead request;
    private final RequestBody requestBody;
    private final ResponseBody body;
    private final HeaderFields headers = new HeaderFields();
    private int status = 200;
    private long declaredLength = -1;
    private boolean committed;
    private boolean keepAlive;
    private ResponseFraming framing;

    ExchangeResponse(HttpConnection connection, RequestHead request, RequestBody requestBody) {
        this.connection = connection;
        this.request = request;
        this.requestBody = requestBody;
        this.body = new ResponseBody(this, connection);
    }

    @Override
    public void status(int status) {
        if (status < 100 || status > 599 || status == 101) {
            throw new IllegalArgumentException("status must be 100-599 except 101 but was " + status);
        }
        if (!committed) {
            this.status = status;
        }
    }

    @Override
    public int status() {
        return status;
    }

    @Override
    public HeaderFields headers() {
        return headers;
    }

    @Override
    public void contentLength(long length) {
        if (length < -1) {
            throw new IllegalArgumentException("contentLength must be -1 or more but was " + length);
        }
        if (!committed) {
            declaredLength = length;
        }
    }

    @Override
    public OutputStream body() {
        return body;
    }

    @Override
    public boolean committed() {
        return committed;
    }

    @Override
    public void reset() {
        if (committed) {
            throw new IllegalStateException("The response is already committed");
        }
        status = 200;
        declaredLength = -1;
        headers.clear();
        body.discard();
    }

    long declaredLength() {
        return declaredLength;
    }

    ResponseFraming framing() {
        return framing;
    }

    boolean keepAlive() {
        return keepAlive;
    }

    ResponseBody responseBody() {
        return body;
    }

    /**
     * Decides framing and keep-alive and encodes the head into the connection's encoder.
     *
     * @param last whether the handler is done, so {@code buffered} is the whole body
     */
    void commit(boolean last, int buffered) {
        takeDeclaredLength();
        headers.remove(HeaderNames.TRANSFER_ENCODING);
        boolean closeRequested = headers.containsToken(HeaderNames.CONNECTION, "close");
        headers.remove(HeaderNames.CONNECTION);
        framing = framing(last);
        if (last && declaredLength < 0 && (framing == ResponseFraming.FIXED || request.isHead())) {
            declaredLength = request.isHead() ? body.written() : buffered;
        }
        keepAlive = !closeRequested && framing != ResponseFraming.CLOSE_DELIMITED
                && connection.mayKeepAlive(request, requestBody);
        committed = true;
        encodeHead();
    }

    private ResponseFraming framing(boolean last) {
        if (request.isHead() || status < 200 || status == 204 || status == 304) {
            return ResponseFraming.NONE;
        }
        if (declaredLength >= 0 || last) {
            return ResponseFraming.FIXED;
        }
        return request.version() == HttpVersion.HTTP_1_1 ? ResponseFraming.CHUNKED : ResponseFraming.CLOSE_DELIMITED;
    }

    private void takeDeclaredLength() {
        String value = headers.get(HeaderNames.CONTENT_LENGTH);
        if (value != null) {
            headers.remove(HeaderNames.CONTENT_LENGTH);
            try {
                declaredLength = Long.parseLong(value.strip());
            } catch (NumberFormatException ignored) {
                // A malformed length from the handler is dropped; the engine frames the body itself.
            }
        }
    }

    private void encodeHead() {
        ResponseHeadEncoder encoder = connection.encoder().start(HttpVersion.HTTP_1_1, status);
        for (int i = 0; i < headers.size(); i++) {
            encoder.field(headers.name(i), headers.value(i));
        }
        if (!headers.contains(HeaderNames.DATE)) {
            encoder.field(HeaderNames.DATE, connection.context().date().now());
        }
        String server = connection.context().config().serverHeader();
        if (server != null && !headers.contains(HeaderNames.SERVER)) {
            encoder.field(HeaderNames.SERVER, server);
        }
        boolean lengthAllowed = status != 204 && status >= 200;
        if (declaredLength >= 0 && lengthAllowed) {
            encoder.field(HeaderNames.CONTENT_LENGTH, declaredLength);
        } else if (framing == ResponseFraming.CHUNKED) {
            encoder.field(HeaderNames.TRANSFER_ENCODING, "chunked");
        }
        if (!keepAlive) {
            encoder.field(HeaderNames.CONNECTION, "close");
        } else if (request.version() == HttpVersion.HTTP_1_0) {
            encoder.field(HeaderNames.CONNECTION, "keep-alive");
        }
        encoder.end();
    }
}
