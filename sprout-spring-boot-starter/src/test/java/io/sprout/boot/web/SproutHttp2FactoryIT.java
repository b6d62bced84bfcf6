package io.sprout.boot.web;

import io.sprout.engine.ServerStats;
import jakarta.servlet.GenericServlet;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.hc.client5.http.impl.DefaultHttpRequestRetryStrategy;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.util.TimeValue;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.web.server.Http2;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.servlet.ServletContextInitializer;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.util.StreamUtils;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HTTP/2 through the servlet web server factory, in every engine combination: Boot's two HTTP/2 tests of
 * {@code AbstractServletWebServerFactoryTests} (4.1) ported as they are (their Jetty HTTP/2 client speaks h2c by
 * prior knowledge, their Apache HttpClient 5 HTTP/1.1), then what a servlet sees over h2c.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
class SproutHttp2FactoryIT {

    @Parameter
    Engines engines;

    protected WebServer webServer;

    private final HttpClientContext httpClientContext = HttpClientContext.create();

    private final Supplier<HttpClientBuilder> httpClientBuilder = () -> HttpClients.custom()
            .setRetryStrategy(new DefaultHttpRequestRetryStrategy(10, TimeValue.of(200, TimeUnit.MILLISECONDS)));

    /** Boot's tear-down, and then the leak check every Sprout server test ends with. */
    @AfterEach
    void tearDown() {
        if (webServer != null) {
            ServerStats stats = ((SproutWebServer) webServer).stats();
            webServer.stop();
            webServer.destroy();
            if (stats != null) {
                assertThat(stats.buffersLeased()).as("buffers still leased after stop").isZero();
            }
        }
    }

    /** Adapted: Boot's subclasses make their server's factory; this is Sprout's, small, in this combination. */
    private SproutServletWebServerFactory getFactory() {
        return WebServerUnderTest.factory(engines);
    }

    // --- Boot's AbstractServletWebServerFactoryTests, as they are ---

    @Test
    protected void whenHttp2IsEnabledAndSslIsDisabledThenH2cCanBeUsed() throws Exception {
        SproutServletWebServerFactory factory = getFactory();
        Http2 http2 = new Http2();
        http2.setEnabled(true);
        factory.setHttp2(http2);
        this.webServer = factory.getWebServer(exampleServletRegistration());
        this.webServer.start();
        try (org.eclipse.jetty.client.HttpClient client = new org.eclipse.jetty.client.HttpClient(
                new HttpClientTransportOverHTTP2(new HTTP2Client()))) {
            client.start();
            ContentResponse response = client.GET("http://localhost:" + this.webServer.getPort() + "/hello");
            assertThat(response.getStatus()).isEqualTo(HttpStatus.OK.value());
            assertThat(response.getContentAsString()).isEqualTo("Hello World");
        }
    }

    @Test
    protected void whenHttp2IsEnabledAndSslIsDisabledThenHttp11CanStillBeUsed() throws IOException,
            URISyntaxException {
        SproutServletWebServerFactory factory = getFactory();
        Http2 http2 = new Http2();
        http2.setEnabled(true);
        factory.setHttp2(http2);
        this.webServer = factory.getWebServer(exampleServletRegistration());
        this.webServer.start();
        assertThat(getResponse("http://localhost:" + this.webServer.getPort() + "/hello")).isEqualTo("Hello World");
    }

    // --- what a servlet sees over h2c ---

    @Test
    void aServletSeesHttp2AndNoPushBuilder() throws Exception {
        start(context -> WebServerUnderTest.servlet("/report", new HttpServlet() {
            @Override
            protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.setContentType("text/plain");
                response.getWriter().print("protocol=" + request.getProtocol() + " push=" + request.newPushBuilder()
                        + " method=" + request.getMethod() + " body=" + new String(
                        request.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
        }).onStartup(context));
        try (org.eclipse.jetty.client.HttpClient client = priorKnowledgeClient()) {
            ContentResponse get = client.GET(url("/report"));
            ContentResponse post = client.POST(url("/report"))
                    .body(new StringRequestContent("text/plain", "Hello World")).send();

            assertThat(get.getVersion()).isEqualTo(org.eclipse.jetty.http.HttpVersion.HTTP_2);
            assertThat(get.getContentAsString()).isEqualTo("protocol=HTTP/2.0 push=null method=GET body=");
            assertThat(post.getContentAsString()).isEqualTo("protocol=HTTP/2.0 push=null method=POST body=Hello World");
        }
    }

    /**
     * RFC 9113 §8.2.2: connection-specific fields make an HTTP/2 message malformed, so what a servlet written for
     * HTTP/1.1 sets ({@code Connection: close}, {@code Keep-Alive}) never reaches the client, and the connection
     * goes on serving.
     */
    @Test
    void connectionSpecificHeadersAServletSetsAreNotSentOverHttp2() throws Exception {
        start(context -> WebServerUnderTest.servlet("/close", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.setHeader("Connection", "close");
                response.setHeader("Keep-Alive", "timeout=5");
                response.setHeader("Proxy-Connection", "keep-alive");
                response.setHeader("Upgrade", "websocket");
                response.setHeader("X-Kept", "yes");
                response.setContentType("text/plain");
                response.getWriter().print("closed?");
            }
        }).onStartup(context));
        try (org.eclipse.jetty.client.HttpClient client = priorKnowledgeClient()) {
            ContentResponse first = client.GET(url("/close"));
            ContentResponse second = client.GET(url("/close"));

            for (ContentResponse response : new ContentResponse[] {first, second}) {
                assertThat(response.getVersion()).isEqualTo(org.eclipse.jetty.http.HttpVersion.HTTP_2);
                assertThat(response.getContentAsString()).isEqualTo("closed?");
                assertThat(response.getHeaders().get("X-Kept")).isEqualTo("yes");
                assertThat(response.getHeaders().getFieldNamesCollection()).map(String::toLowerCase)
                        .doesNotContain("connection", "keep-alive", "proxy-connection", "upgrade",
                                "transfer-encoding");
            }
        }
        assertThat(((SproutWebServer) webServer).stats().connectionsAccepted()).as("one connection for both")
                .isEqualTo(1);
    }

    /** The JDK client cannot use prior knowledge; it upgrades its first request ({@code Upgrade: h2c}). */
    @Test
    void theJdkClientUpgradesToH2c() throws Exception {
        start(exampleServletRegistration());
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(10)).build();
        try (client) {
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url("/hello")))
                        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
                assertThat(response.body()).isEqualTo("Hello World");
            }
        }
    }

    private void start(ServletContextInitializer initializer) {
        SproutServletWebServerFactory factory = getFactory();
        Http2 http2 = new Http2();
        http2.setEnabled(true);
        factory.setHttp2(http2);
        webServer = factory.getWebServer(initializer);
        webServer.start();
    }

    private String url(String path) {
        return "http://localhost:" + webServer.getPort() + path;
    }

    private static org.eclipse.jetty.client.HttpClient priorKnowledgeClient() throws Exception {
        org.eclipse.jetty.client.HttpClient client = new org.eclipse.jetty.client.HttpClient(
                new HttpClientTransportOverHTTP2(new HTTP2Client()));
        client.start();
        return client;
    }

    // --- Boot's helpers, as they are ---

    protected String getResponse(String url, String... headers) throws IOException, URISyntaxException {
        return getResponse(url, HttpMethod.GET, headers);
    }

    protected String getResponse(String url, HttpMethod method, String... headers)
            throws IOException, URISyntaxException {
        try (ClientHttpResponse response = getClientResponse(url, method, headers)) {
            return StreamUtils.copyToString(response.getBody(), StandardCharsets.UTF_8);
        }
    }

    protected ClientHttpResponse getClientResponse(String url, HttpMethod method, String... headers)
            throws IOException, URISyntaxException {
        return getClientResponse(url, method,
                new HttpComponentsClientHttpRequestFactory(this.httpClientBuilder.get().build()) {

                    @Override
                    protected HttpContext createHttpContext(HttpMethod httpMethod, URI uri) {
                        return SproutHttp2FactoryIT.this.httpClientContext;
                    }

                }, headers);
    }

    protected ClientHttpResponse getClientResponse(String url, HttpMethod method,
            HttpComponentsClientHttpRequestFactory requestFactory, String... headers)
            throws IOException, URISyntaxException {
        ClientHttpRequest request = requestFactory.createRequest(new URI(url), method);
        for (String header : headers) {
            String[] parts = header.split(":");
            request.getHeaders().add(parts[0], parts[1]);
        }
        return request.execute();
    }

    /** Adapted: Boot's comes from its test support jar; this answers as its {@code ExampleServlet} does. */
    protected ServletContextInitializer exampleServletRegistration() {
        return new ServletRegistrationBean<>(new ExampleServlet(), "/hello");
    }

    /** Boot's {@code ExampleServlet} without its options: "Hello World" with a content length. */
    static final class ExampleServlet extends GenericServlet {

        @Override
        public void service(ServletRequest request, ServletResponse response) throws IOException {
            String content = "Hello World";
            response.setContentLength(content.length());
            response.getWriter().write(content);
        }
    }
}
