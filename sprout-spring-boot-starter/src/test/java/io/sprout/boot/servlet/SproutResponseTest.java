package io.sprout.boot.servlet;

import io.sprout.boot.servlet.http.SproutRequest;
import io.sprout.boot.servlet.http.SproutResponse;
import jakarta.servlet.http.Cookie;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/** The servlet response's own rules (content type, charset, commit, errors), over an in-memory engine response. */
class SproutResponseTest {

    @TempDir
    Path temp;

    private final FakeHttpResponse engine = new FakeHttpResponse();

    private SproutResponse response(FakeHttpRequest request) {
        SproutServletContext context = new SproutServletContext(ContainerConfig.defaults(temp));
        return new SproutResponse(engine, new SproutRequest(request, context, false),
                context);
    }

    private SproutResponse response() {
        return response(FakeHttpRequest.get("/"));
    }

    @Test
    void charsetComesFromContentTypeOrSetterAndIsFixedByGetWriter() throws IOException {
        SproutResponse response = response();
        response.setContentType("application/json; charset=UTF-8");
        assertThat(response.getContentType()).isEqualTo("application/json;charset=UTF-8");
        response.setCharacterEncoding("UTF-16");
        response.getWriter();
        response.setCharacterEncoding("ISO-8859-1");
        response.setContentType("text/plain;charset=US-ASCII");
        assertThat(response.getContentType()).isEqualTo("text/plain;charset=UTF-16");
    }

    @Test
    void writerWithoutCharsetUsesIso88591() throws IOException {
        SproutResponse response = response();
        response.setContentType("text/plain");
        response.getWriter().print("é");
        response.finish();
        assertThat(engine.headers().get("Content-Type")).isEqualTo("text/plain;charset=ISO-8859-1");
        assertThat(engine.bytes()).containsExactly(0xE9);
    }

    @Test
    void streamAndWriterExcludeEachOther() throws IOException {
        SproutResponse response = response();
        response.getOutputStream();
        assertThatIllegalStateException().isThrownBy(response::getWriter);
        response.reset();
        response.getWriter();
        assertThatIllegalStateException().isThrownBy(response::getOutputStream);
    }

    @Test
    void flushCommitsAndLaterHeaderChangesAreIgnored() throws IOException {
        SproutResponse response = response();
        response.setStatus(201);
        response.getOutputStream().write('x');
        response.flushBuffer();
        assertThat(response.isCommitted()).isTrue();
        response.setStatus(500);
        response.setHeader("X-Late", "1");
        assertThat(engine.status()).isEqualTo(201);
        assertThat(engine.headers().get("X-Late")).isNull();
        assertThatIllegalStateException().isThrownBy(() -> response.sendError(404));
        assertThatIllegalStateException().isThrownBy(response::reset);
    }

    @Test
    void sendErrorDropsOutputUntilTheErrorDispatch() throws IOException {
        SproutResponse response = response();
        response.getWriter().print("before");
        response.sendError(404, "nope");
        response.getWriter().print("ignored");
        assertThat(response.isError()).isTrue();
        assertThat(response.errorMessage()).isEqualTo("nope");
        response.beginErrorOutput();
        response.getWriter().print("error page");
        response.finish();
        assertThat(engine.status()).isEqualTo(404);
        assertThat(engine.text()).isEqualTo("error page");
    }

    @Test
    void declaredLengthClosesTheBodyOnceWritten() throws IOException {
        SproutResponse response = response();
        response.setContentLength(3);
        response.getOutputStream().write("abcdef".getBytes());
        assertThat(engine.closed()).isTrue();
        assertThat(engine.declaredLength()).isEqualTo(3);
        assertThat(response.getHeader("Content-Length")).isEqualTo("3");
    }

    @Test
    void contentTypeAndLengthHeadersRouteToTheirSetters() {
        SproutResponse response = response();
        response.setHeader("content-type", "text/html;charset=UTF-8");
        response.addHeader("Content-Length", "12");
        assertThat(response.getContentType()).isEqualTo("text/html;charset=UTF-8");
        assertThat(response.getHeaderNames()).contains("Content-Type", "Content-Length");
        assertThat(engine.headers().contains("Content-Length")).isFalse();
    }

    @Test
    void setLocaleSetsContentLanguage() throws IOException {
        SproutResponse response = response();
        response.setLocale(Locale.CANADA_FRENCH);
        response.finish();
        assertThat(engine.headers().get("Content-Language")).isEqualTo("fr-CA");
    }

    @Test
    void addsCookiesAsSetCookieHeaders() {
        SproutResponse response = response();
        Cookie cookie = new Cookie("theme", "dark");
        cookie.setPath("/");
        response.addCookie(cookie);
        assertThat(engine.headers().all("Set-Cookie")).containsExactly("theme=dark; Path=/");
    }

    @Test
    void headResponsesKeepTheirLengthButNoForcedBody() throws IOException {
        SproutResponse response = response(new FakeHttpRequest("HEAD", "/", ""));
        response.finish();
        assertThat(engine.declaredLength()).isEqualTo(-1);
    }
}
