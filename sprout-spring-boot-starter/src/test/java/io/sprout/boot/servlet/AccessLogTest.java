package io.sprout.boot.servlet;

import io.sprout.boot.servlet.http.SproutRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class AccessLogTest {

    @TempDir
    Path temp;

    @Test
    void formatsTheCommonPattern() {
        FakeHttpRequest engine = FakeHttpRequest.get("/a?b=1", "Referer", "http://r");
        SproutRequest request = new SproutRequest(engine, new SproutServletContext(ContainerConfig.defaults(temp)),
                false);
        String line = new AccessLog("common").format(request, 200, 0, 0);
        assertThat(line).matches("127\\.0\\.0\\.1 - - \\[.+\\] \"GET /a\\?b=1 HTTP/1\\.1\" 200 -");
        assertThat(new AccessLog("%m %U%q %s %B %D %{Referer}i %%").format(request, 404, 12, 3_000_000))
                .isEqualTo("GET /a?b=1 404 12 3 http://r %");
    }

    @Test
    void rejectsUnknownCodesNamingThem() {
        assertThatIllegalArgumentException().isThrownBy(() -> new AccessLog("%h %Q")).withMessageContaining("%Q");
    }
}
