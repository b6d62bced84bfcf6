package io.sprout.engine.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The framing {@link RequestRules} derives from valid heads; rejections live in {@link StrictnessCorpusTest}. */
class RequestRulesTest {

    private static RequestHead head(String raw) {
        RequestHead head = new RequestHeadParser(ParserLimits.DEFAULT).parse(ByteBuffer.wrap(Feedings.bytes(raw)));
        assertThat(head).as("head of %s", raw).isNotNull();
        return head;
    }

    private static BodyFraming framing(String raw) {
        return RequestRules.validate(head(raw), -1);
    }

    @Test
    void framesARequestWithoutBodyFieldsAsNoBody() {
        assertThat(framing("GET / HTTP/1.1\r\nHost: a\r\n\r\n")).isSameAs(BodyFraming.NONE);
        assertThat(BodyFraming.NONE.declaredLength()).isZero();
    }

    @Test
    void framesContentLengthZeroAsNoBody() {
        assertThat(framing("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n")).isSameAs(BodyFraming.NONE);
    }

    @Test
    void framesContentLengthAsAFixedBody() {
        BodyFraming framing = framing("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0012\r\n\r\n");

        assertThat(framing).isEqualTo(new BodyFraming.Fixed(12));
        assertThat(framing.declaredLength()).isEqualTo(12);
    }

    @Test
    void framesChunkedAsChunkedWithNoDeclaredLength() {
        BodyFraming framing = framing("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n");

        assertThat(framing).isInstanceOf(BodyFraming.Chunked.class);
        assertThat(framing.declaredLength()).isEqualTo(-1);
    }

    @Test
    void framesAnHttp10BodyByContentLength() {
        assertThat(framing("POST / HTTP/1.0\r\nContent-Length: 3\r\n\r\n")).isEqualTo(new BodyFraming.Fixed(3));
    }

    @Test
    void neverLimitsAChunkedBodyBeforeReadingIt() {
        RequestHead head = head("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n");

        assertThat(RequestRules.validate(head, 0)).isInstanceOf(BodyFraming.Chunked.class);
    }

    @Test
    void acceptsADeclaredBodyUpToTheLimitAndRefusesOneByteMore() {
        RequestHead atLimit = head("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n");
        RequestHead over = head("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 101\r\n\r\n");

        assertThat(RequestRules.validate(atLimit, 100)).isEqualTo(new BodyFraming.Fixed(100));
        assertThatThrownBy(() -> RequestRules.validate(over, 100))
                .isInstanceOfSatisfying(HttpException.class, e -> assertThat(e.status()).isEqualTo(413));
    }

    @Test
    void treatsMinusOneAsNoBodyLimit() {
        RequestHead head = head("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 999999999999999999\r\n\r\n");

        assertThat(RequestRules.validate(head, -1).declaredLength()).isEqualTo(999_999_999_999_999_999L);
    }

    @Test
    void expectsContinueOnlyOnHttp11() {
        assertThat(RequestRules.expectsContinue(
                head("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n"))).isTrue();
        assertThat(RequestRules.expectsContinue(
                head("POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n"))).isFalse();
        assertThat(RequestRules.expectsContinue(
                head("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n\r\n"))).isFalse();
    }
}
