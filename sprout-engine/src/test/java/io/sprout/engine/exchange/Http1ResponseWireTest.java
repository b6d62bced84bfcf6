package io.sprout.engine.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import io.sprout.engine.ServerConfig;
import io.sprout.engine.http.BodyFraming;
import io.sprout.engine.http.HeaderFields;
import io.sprout.engine.http.HeaderNames;
import io.sprout.engine.http.ParserLimits;
import io.sprout.engine.http.RequestHeadParser;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * HTTP/1.1 framing below the exchange, byte for byte: what {@link Http1ResponseWire#frame} makes of a send buffer
 * laid out as the response body lays it out (headroom, body bytes, tailroom).
 */
class Http1ResponseWireTest {

    private static final String DATE = "Sun, 06 Nov 1994 08:49:37 GMT";

    private final ServerContext context = new ServerContext(ServerConfig.builder().build(),
            (request, response) -> { }, Runnable::run, Runnable::run, Thread::new);
    private final HttpConnection connection = new HttpConnection(context, new MemoryChannel(""),
            outcome -> { });

    @AfterEach
    void close() {
        connection.release();
        context.close();
    }

    @Test
    void putsTheHeadBeforeAWholeBodyInTheSameBuffer() {
        Http1ResponseWire wire = wire("GET / HTTP/1.1\r\nHost: test\r\n\r\n");
        ResponsePlan plan = wire.commit(200, fields(), -1, true, 5, false);
        ByteBuffer buffer = region(wire, "hello");

        ByteBuffer outgoing = wire.frame(buffer, true);

        assertThat(plan.framing()).isEqualTo(ResponseFraming.FIXED);
        assertThat(outgoing).isSameAs(buffer);
        assertThat(text(outgoing)).isEqualTo(
                "HTTP/1.1 200 OK\r\nDate: " + DATE + "\r\nContent-Length: 5\r\n\r\nhello");
    }

    @Test
    void framesChunksInTheHeadroomAndEndsTheBodyInTheTailroom() {
        Http1ResponseWire wire = wire("GET / HTTP/1.1\r\nHost: test\r\n\r\n");
        wire.commit(200, fields(), -1, false, 3, false);

        String first = text(wire.frame(region(wire, "abc"), false));
        String middle = text(wire.frame(region(wire, "0123456789abcdefg"), false));
        String last = text(wire.frame(region(wire, ""), true));

        assertThat(first).isEqualTo(
                "HTTP/1.1 200 OK\r\nDate: " + DATE + "\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n");
        assertThat(middle).isEqualTo("11\r\n0123456789abcdefg\r\n");
        assertThat(last).isEqualTo("0\r\n\r\n");
    }

    @Test
    void sendsNoBodyBytesForHead() {
        Http1ResponseWire wire = wire("HEAD / HTTP/1.1\r\nHost: test\r\n\r\n");
        wire.commit(200, fields(), -1, true, 5, false);

        String sent = text(wire.frame(region(wire, "hello"), true));

        assertThat(sent).isEqualTo("HTTP/1.1 200 OK\r\nDate: " + DATE + "\r\nContent-Length: 5\r\n\r\n");
    }

    @Test
    void copiesAHeadLargerThanTheHeadroom() {
        Http1ResponseWire wire = wire("GET / HTTP/1.1\r\nHost: test\r\n\r\n");
        HeaderFields fields = fields();
        fields.add("X-Large", "x".repeat(wire.headroom()));
        wire.commit(200, fields, -1, true, 2, false);
        ByteBuffer buffer = region(wire, "ok");

        ByteBuffer outgoing = wire.frame(buffer, true);

        assertThat(outgoing).isNotSameAs(buffer);
        assertThat(text(outgoing)).startsWith("HTTP/1.1 200 OK\r\n").endsWith("\r\nContent-Length: 2\r\n\r\nok");
    }

    @Test
    void ownsTheFramingFieldsOfTheHandler() {
        Http1ResponseWire wire = wire("GET / HTTP/1.0\r\n\r\n");
        HeaderFields fields = fields();
        fields.add(HeaderNames.TRANSFER_ENCODING, "gzip");
        fields.add(HeaderNames.CONNECTION, "keep-alive");
        ResponsePlan plan = wire.commit(200, fields, -1, false, 0, false);

        String sent = text(wire.frame(region(wire, "data"), true));

        assertThat(plan.framing()).isEqualTo(ResponseFraming.CLOSE_DELIMITED);
        assertThat(sent).isEqualTo("HTTP/1.1 200 OK\r\nDate: " + DATE + "\r\nConnection: close\r\n\r\ndata");
    }

    private Http1ResponseWire wire(String head) {
        var parsed = new RequestHeadParser(ParserLimits.DEFAULT).parse(
                ByteBuffer.wrap(head.getBytes(StandardCharsets.ISO_8859_1)));
        return (Http1ResponseWire) connection.responseWire(parsed,
                new RequestBody(context, connection.requestWire(BodyFraming.NONE, false)));
    }

    /** A fixed Date keeps the bytes exact; the wire adds its own only when the handler set none. */
    private static HeaderFields fields() {
        HeaderFields fields = new HeaderFields();
        fields.add(HeaderNames.DATE, DATE);
        return fields;
    }

    /** A send buffer as the response body leaves it: body bytes after the headroom, room for the tail after them. */
    private static ByteBuffer region(ResponseWire wire, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer buffer = ByteBuffer.allocate(wire.headroom() + bytes.length + wire.tailroom());
        buffer.position(wire.headroom()).put(bytes);
        return buffer.limit(buffer.position()).position(wire.headroom());
    }

    private static String text(ByteBuffer bytes) {
        return new String(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining(),
                StandardCharsets.ISO_8859_1);
    }
}
