package io.sprout.engine.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import io.sprout.engine.http.ParserLimits;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.http.RequestHeadParser;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The client's side of the keep-alive decision ({@code clientWantsKeepAlive} in {@link ResponseFacts}). */
class KeepAlivePolicyTest {

    @ParameterizedTest(name = "{0} with ''{1}'' -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            HTTP/1.1 |                    | true
            HTTP/1.1 | close              | false
            HTTP/1.1 | Upgrade, close     | false
            HTTP/1.1 | keep-alive         | true
            HTTP/1.0 |                    | false
            HTTP/1.0 | keep-alive         | true
            HTTP/1.0 | Keep-Alive, TE     | true
            HTTP/1.0 | close              | false
            """)
    void keepsAliveByDefaultOnHttp11AndOnlyWhenAskedOnHttp10(String version, String connection, boolean expected) {
        String field = connection == null ? "" : "Connection: " + connection + "\r\n";
        RequestHead head = parse("GET / " + version + "\r\nHost: test\r\n" + field + "\r\n");

        assertThat(KeepAlivePolicy.requested(head)).isEqualTo(expected);
    }

    private static RequestHead parse(String head) {
        return new RequestHeadParser(ParserLimits.DEFAULT).parse(
                ByteBuffer.wrap(head.getBytes(StandardCharsets.ISO_8859_1)));
    }
}
