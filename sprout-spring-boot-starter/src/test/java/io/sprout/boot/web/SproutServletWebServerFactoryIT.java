package io.sprout.boot.web;

import io.sprout.engine.ServerStats;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.Part;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.error.ErrorPage;
import org.springframework.boot.web.server.Compression;
import org.springframework.boot.web.server.Cookie;
import org.springframework.boot.web.server.GracefulShutdownResult;
import org.springframework.boot.web.server.MimeMappings;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.WebServerException;
import org.springframework.boot.web.server.servlet.CookieSameSiteSupplier;
import org.springframework.boot.web.server.servlet.Session;
import org.springframework.boot.web.servlet.ServletContextInitializer;
import org.springframework.http.HttpStatus;
import org.springframework.util.unit.DataSize;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Our conformance suite for the servlet web server factory, modelled on the topics of Boot's own server
 * contract tests (REFERENCE.md §3), run in every execution mode and thread type over real sockets.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
@ExtendWith(OutputCaptureExtension.class)
class SproutServletWebServerFactoryIT {

    @Parameter
    Engines engines;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final Map<String, Object> seen = new ConcurrentHashMap<>();
    private SproutWebServer webServer;

    /** Stops the server and checks, as every transport test does, that no pooled buffer is still leased. */
    @AfterEach
    void destroy() {
        if (webServer != null) {
            ServerStats stats = webServer.stats();
            webServer.destroy();
            if (stats != null) {
                assertThat(stats.buffersLeased()).as("buffers still leased after stop").isZero();
            }
        }
    }

    private SproutServletWebServerFactory factory() {
        SproutServletWebServerFactory factory = new SproutServletWebServerFactory(0);
        factory.setServerConfig(engines.config());
        return factory;
    }

    private SproutWebServer start(SproutServletWebServerFactory factory, ServletContextInitializer... initializers) {
        webServer = (SproutWebServer) factory.getWebServer(initializers);
        webServer.start();
        return webServer;
    }

    private static ServletContextInitializer servlet(String pattern, HttpServlet servlet) {
        return context -> {
            ServletRegistration.Dynamic registration = context.addServlet(pattern + "-servlet", servlet);
            registration.addMapping(pattern);
            registration.setAsyncSupported(true);
        };
    }

    private static HttpServlet text(String body) {
        return new HttpServlet() {
            @Override
            protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.setContentType("text/plain");
                resp.getWriter().print(body);
            }
        };
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        return send(request(path, headers).GET());
    }

    private HttpRequest.Builder request(String path, String... headers) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + webServer.getPort() + path))
                .timeout(Duration.ofSeconds(30));
        if (headers.length > 0) {
            builder.headers(headers);
        }
        return builder;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    // --- lifecycle ---

    @Test
    void startAndStopAreIdempotentAndPortIsMinusOneWhenStopped() throws Exception {
        start(factory(), servlet("/hello", text("hi")));
        webServer.start();
        int port = webServer.getPort();
        assertThat(port).isPositive();
        assertThat(get("/hello").body()).isEqualTo("hi");
        webServer.stop();
        webServer.stop();
        assertThat(webServer.getPort()).isEqualTo(-1);
    }

    @Test
    void restartsAfterStop() throws Exception {
        start(factory(), servlet("/hello", text("again")));
        webServer.stop();
        webServer.start();
        assertThat(webServer.getPort()).isPositive();
        assertThat(get("/hello").body()).isEqualTo("again");
    }

    @Test
    void listensOnASpecificPort() throws Exception {
        int free;
        try (ServerSocket probe = new ServerSocket(0)) {
            free = probe.getLocalPort();
        }
        SproutServletWebServerFactory factory = factory();
        factory.setPort(free);
        start(factory, servlet("/hello", text("fixed")));
        assertThat(webServer.getPort()).isEqualTo(free);
        assertThat(get("/hello").body()).isEqualTo("fixed");
    }

    @Test
    void neverListensWithANegativePort() {
        SproutServletWebServerFactory factory = factory();
        factory.setPort(-1);
        start(factory, servlet("/hello", text("hidden")));
        assertThat(webServer.getPort()).isEqualTo(-1);
    }

    @Test
    void loadsOnStartupWhenStartedNotWhenCreated() {
        HttpServlet eager = new HttpServlet() {
            @Override
            public void init() {
                seen.put("init", Thread.currentThread().getName());
            }
        };
        webServer = (SproutWebServer) factory().getWebServer(context -> context.addServlet("eager", eager)
                .setLoadOnStartup(1));
        assertThat(seen).doesNotContainKey("init");
        webServer.start();
        assertThat(seen).containsKey("init");
    }

    @Test
    void keepsANonDaemonThreadAliveWhileRunning() {
        start(factory(), servlet("/hello", text("hi")));
        assertThat(webServer.keepAliveThreadRunning()).isTrue();
        assertThat(Thread.getAllStackTraces().keySet()).anyMatch(
                thread -> thread.getName().equals("sprout-" + webServer.getPort() + "-housekeeper")
                        && !thread.isDaemon());
        webServer.stop();
        assertThat(webServer.keepAliveThreadRunning()).isFalse();
    }

    @Test
    void logsTheStartedLine(CapturedOutput output) {
        SproutServletWebServerFactory factory = factory();
        factory.setContextPath("/shop");
        start(factory, servlet("/hello", text("hi")));
        String engine = engines.mode().name().toLowerCase(Locale.ROOT) + ", " + switch (engines.threads()) {
            case PLATFORM -> "platform threads, 16 workers";
            case VIRTUAL -> "virtual threads";
        };
        assertThat(output).contains("Sprout started on port " + webServer.getPort()
                + " (http) with context path '/shop' \u2014 " + engine);
    }

    // --- startup failures ---

    @Test
    void portClashIsPortInUseException() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            SproutServletWebServerFactory factory = factory();
            factory.setPort(taken.getLocalPort());
            webServer = (SproutWebServer) factory.getWebServer();
            assertThatExceptionOfType(PortInUseException.class).isThrownBy(webServer::start)
                    .satisfies(e -> assertThat(e.getPort()).isEqualTo(taken.getLocalPort()));
        }
    }

    @Test
    void addressNotOnThisHostFailsStartWithWebServerException() throws Exception {
        SproutServletWebServerFactory factory = factory();
        factory.setAddress(InetAddress.getByName("192.0.2.1"));
        webServer = (SproutWebServer) factory.getWebServer();
        assertThatExceptionOfType(WebServerException.class).isThrownBy(webServer::start)
                .isNotInstanceOf(PortInUseException.class);
    }

    @Test
    void faultyFilterFailsGetWebServer() {
        Filter faulty = new Filter() {
            @Override
            public void init(FilterConfig config) throws ServletException {
                throw new ServletException("faulty filter");
            }

            @Override
            public void doFilter(jakarta.servlet.ServletRequest request, jakarta.servlet.ServletResponse response,
                    jakarta.servlet.FilterChain chain) {
            }
        };
        assertThatExceptionOfType(WebServerException.class).isThrownBy(() -> factory().getWebServer(
                context -> context.addFilter("faulty", faulty).addMappingForUrlPatterns(null, false, "/*")))
                .withStackTraceContaining("faulty filter");
    }

    @Test
    void loadOnStartupFailureIsRethrownFromStart() {
        HttpServlet failing = new HttpServlet() {
            @Override
            public void init() throws ServletException {
                throw new ServletException("cannot load");
            }
        };
        webServer = (SproutWebServer) factory().getWebServer(
                context -> context.addServlet("failing", failing).setLoadOnStartup(0));
        assertThatExceptionOfType(WebServerException.class).isThrownBy(webServer::start)
                .withStackTraceContaining("cannot load");
    }

    @Test
    void sslWithoutKeyMaterialFailsWithAClearMessage() {
        SproutServletWebServerFactory ssl = factory();
        ssl.setSsl(new org.springframework.boot.web.server.Ssl());
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> ssl.getWebServer()))
                .hasMessageContaining("SSL is enabled but no trust material is configured");
    }

    // --- listeners, class loader, context path ---

    @Test
    void callsContextListenersAndSetsTheThreadContextClassLoader() throws Exception {
        ClassLoader loader = new ClassLoader(getClass().getClassLoader()) {
        };
        SproutServletWebServerFactory factory = factory();
        factory.setResourceLoader(new org.springframework.core.io.DefaultResourceLoader(loader));
        start(factory, context -> context.addListener(new ServletContextListener() {
            @Override
            public void contextInitialized(ServletContextEvent event) {
                seen.put("initialized", true);
            }
        }), servlet("/loader", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.getWriter().print(Thread.currentThread().getContextClassLoader() == loader);
            }
        }));
        assertThat(seen).containsEntry("initialized", true);
        assertThat(get("/loader").body()).isEqualTo("true");
    }

    /** Registered by class name, as {@code @ServletComponentScan} registers {@code @WebListener}s. */
    public static class AttributeSettingListener implements ServletContextListener {
        @Override
        public void contextInitialized(ServletContextEvent event) {
            event.getServletContext().setAttribute("web-listener", "ran");
        }
    }

    @Test
    void registersWebListenersByClassName() throws Exception {
        SproutServletWebServerFactory factory = factory();
        factory.addWebListeners(AttributeSettingListener.class.getName());
        start(factory, servlet("/attr", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.getWriter().print(req.getServletContext().getAttribute("web-listener"));
            }
        }));
        assertThat(get("/attr").body()).isEqualTo("ran");
    }

    @Test
    void rejectsAnInvalidContextPath() {
        assertThatIllegalArgumentException().isThrownBy(() -> factory().setContextPath("/trailing/"));
        assertThatIllegalArgumentException().isThrownBy(() -> factory().setContextPath("no-slash"));
    }

    @Test
    void servesUnderTheContextPath() throws Exception {
        SproutServletWebServerFactory factory = factory();
        factory.setContextPath("/app");
        start(factory, servlet("/paths", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.getWriter().print(req.getContextPath() + "|" + req.getServletPath() + "|" + req.getRequestURI());
            }
        }));
        assertThat(get("/app/paths").body()).isEqualTo("/app|/paths|/app/paths");
        assertThat(get("/paths").statusCode()).isEqualTo(404);
        HttpResponse<String> redirect = get("/app");
        assertThat(redirect.statusCode()).isEqualTo(302);
        assertThat(redirect.headers().firstValue("Location")).hasValue("/app/");
    }

    @Test
    void mapsServletPatternsPerTheSpec() throws Exception {
        HttpServlet echo = new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                HttpServletMapping mapping = req.getHttpServletMapping();
                resp.getWriter().print(req.getServletPath() + "|" + req.getPathInfo() + "|"
                        + mapping.getMappingMatch() + "|" + mapping.getPattern() + "|" + mapping.getMatchValue());
            }
        };
        start(factory(), context -> context.addServlet("echo", echo).addMapping("/exact", "/prefix/*", "*.do", "/"));
        assertThat(get("/exact").body()).isEqualTo("/exact|null|EXACT|/exact|exact");
        assertThat(get("/prefix/a/b").body()).isEqualTo("/prefix|/a/b|PATH|/prefix/*|a/b");
        assertThat(get("/x/y.do").body()).isEqualTo("/x/y.do|null|EXTENSION|*.do|x/y");
        assertThat(get("/other").body()).isEqualTo("/other|null|DEFAULT|/|");
    }

    // --- mime and locale-charset mappings ---

    @Test
    void resolvesMimeMappings() throws Exception {
        SproutServletWebServerFactory factory = factory();
        factory.addMimeMappings(new MimeMappings(Map.of("sprout", "application/x-sprout")));
        start(factory, servlet("/mime", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                var context = req.getServletContext();
                resp.getWriter().print(context.getMimeType("a.html") + "|" + context.getMimeType("b.SPROUT") + "|"
                        + context.getMimeType("c.unknownext"));
            }
        }));
        assertThat(get("/mime").body()).isEqualTo("text/html|application/x-sprout|null");
    }

    @Test
    void appliesLocaleCharsetMappings() throws Exception {
        SproutServletWebServerFactory factory = factory();
        factory.setLocaleCharsetMappings(Map.of(Locale.JAPANESE, Charset.forName("Shift_JIS")));
        start(factory, servlet("/locale", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.setContentType("text/plain");
                resp.setLocale(Locale.JAPAN);
                resp.getWriter().print("x");
            }
        }));
        HttpResponse<String> response = get("/locale");
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain;charset=Shift_JIS");
        assertThat(response.headers().firstValue("Content-Language")).hasValue("ja-JP");
    }

    // --- error pages ---

    private ServletContextInitializer errorPageRecorder() {
        return servlet("/error", new HttpServlet() {
            @Override
            protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.setContentType("text/plain");
                resp.getWriter().print(req.getDispatcherType() + "|" + req.getMethod() + "|"
                        + req.getAttribute(RequestDispatcher.ERROR_METHOD) + "|"
                        + req.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) + "|"
                        + req.getAttribute(RequestDispatcher.ERROR_REQUEST_URI) + "|"
                        + req.getAttribute(RequestDispatcher.ERROR_SERVLET_NAME) + "|"
                        + req.getAttribute(RequestDispatcher.ERROR_MESSAGE) + "|"
                        + req.getAttribute(RequestDispatcher.ERROR_EXCEPTION_TYPE) + "|"
                        + req.getAttribute(RequestDispatcher.ERROR_EXCEPTION));
            }
        });
    }

    /** The ERROR dispatch is a GET, with the request's own method in {@code jakarta.servlet.error.method}. */
    @Test
    void sendErrorDispatchesToTheGlobalErrorPage() throws Exception {
        SproutServletWebServerFactory factory = factory();
        factory.addErrorPages(new ErrorPage("/error"));
        start(factory, errorPageRecorder(), servlet("/teapot", new HttpServlet() {
            @Override
            protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.getWriter().print("discarded");
                resp.sendError(418, "short and stout");
            }
        }));
        HttpResponse<String> response = send(request("/teapot").PUT(HttpRequest.BodyPublishers.ofString("x")));
        assertThat(response.statusCode()).isEqualTo(418);
        assertThat(response.body()).isEqualTo("ERROR|GET|PUT|418|/teapot|/teapot-servlet|short and stout|null|null");
    }

    @Test
    void uncaughtExceptionDispatchesToTheExceptionPageWithAttributes() throws Exception {
        SproutServletWebServerFactory factory = factory();
        factory.addErrorPages(new ErrorPage(IllegalStateException.class, "/error"),
                new ErrorPage(HttpStatus.NOT_FOUND, "/missing"));
        start(factory, errorPageRecorder(), servlet("/fail", new HttpServlet() {
            @Override
            protected void doPost(HttpServletRequest req, HttpServletResponse resp) {
                throw new IllegalStateException("kaput");
            }
        }));
        HttpResponse<String> response = send(request("/fail").POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).isEqualTo("ERROR|GET|POST|500|/fail|/fail-servlet|kaput|"
                + "class java.lang.IllegalStateException|java.lang.IllegalStateException: kaput");
    }

    @Test
    void errorWithoutErrorPageGetsAPlainBody() throws Exception {
        start(factory(), servlet("/gone", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.sendError(410);
            }
        }));
        HttpResponse<String> response = get("/gone");
        assertThat(response.statusCode()).isEqualTo(410);
        assertThat(response.body()).isEqualTo("HTTP Status 410");
    }

    // --- TRACE ---

    /** A servlet that answers GET and DELETE, and would echo TRACE through HttpServlet's doTrace. */
    private static HttpServlet getAndDelete() {
        return new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.getWriter().print("got");
            }

            @Override
            protected void doDelete(HttpServletRequest req, HttpServletResponse resp) {
                resp.setStatus(204);
            }
        };
    }

    @Test
    void refusesTraceWithTheServletsMethodsBeforeTheServletSeesIt() throws Exception {
        start(factory(), servlet("/resource", getAndDelete()));
        HttpResponse<String> response = send(request("/resource", "X-Custom", "secret")
                .method("TRACE", HttpRequest.BodyPublishers.noBody()));
        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).hasValue("GET, HEAD, DELETE, OPTIONS");
        assertThat(response.body()).isEqualTo("HTTP Status 405 - TRACE method is not allowed");
    }

    @Test
    void letsTheServletEchoTraceWhenAllowed() throws Exception {
        SproutServletWebServerFactory factory = factory();
        factory.setAllowTrace(true);
        start(factory, servlet("/resource", getAndDelete()));
        HttpResponse<String> response = send(request("/resource", "X-Custom", "echoed")
                .method("TRACE", HttpRequest.BodyPublishers.noBody()));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("message/http"));
        assertThat(response.body()).startsWith("TRACE /resource HTTP/1.1").contains("X-Custom: echoed");
    }

    // --- sessions ---

    @Test
    void configuresSessionTimeoutAndCookie() throws Exception {
        SproutServletWebServerFactory factory = factory();
        Session session = new Session();
        session.setTimeout(Duration.ofMinutes(7));
        Cookie cookie = session.getCookie();
        cookie.setName("SPROUTSESSION");
        cookie.setPath("/custom");
        cookie.setDomain("example.test");
        cookie.setHttpOnly(false);
        cookie.setSecure(true);
        cookie.setMaxAge(Duration.ofMinutes(1));
        cookie.setSameSite(Cookie.SameSite.STRICT);
        cookie.setPartitioned(true);
        factory.setSession(session);
        start(factory, servlet("/session", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.getWriter().print(req.getSession().getMaxInactiveInterval());
            }
        }));
        HttpResponse<String> response = get("/session");
        assertThat(response.body()).isEqualTo("420");
        String setCookie = response.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(setCookie).startsWith("SPROUTSESSION=").contains("; Path=/custom", "; Domain=example.test",
                "; Secure", "; Max-Age=60", "; SameSite=Strict", "; Partitioned").doesNotContain("HttpOnly");
    }

    @Test
    void appliesCookieSameSiteSuppliersToApplicationCookies() throws Exception {
        SproutServletWebServerFactory factory = factory();
        factory.addCookieSameSiteSuppliers(CookieSameSiteSupplier.ofLax().whenHasName("pref"));
        start(factory, servlet("/cookies", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                resp.addCookie(new jakarta.servlet.http.Cookie("pref", "1"));
                resp.addCookie(new jakarta.servlet.http.Cookie("other", "2"));
            }
        }));
        assertThat(get("/cookies").headers().allValues("Set-Cookie")).containsExactly("pref=1; SameSite=Lax",
                "other=2");
    }

    @Test
    void rejectsSslSessionTracking() {
        SproutServletWebServerFactory factory = factory();
        Session session = new Session();
        session.setTrackingModes(Set.of(Session.SessionTrackingMode.SSL));
        factory.setSession(session);
        assertThatExceptionOfType(WebServerException.class).isThrownBy(() -> factory.getWebServer())
                .withStackTraceContaining("session tracking mode SSL");
    }

    @Test
    void appliesTheHeaderSizeLimit() throws Exception {
        SproutServletWebServerFactory factory = factory();
        factory.setMaxHttpRequestHeaderSize(1024);
        start(factory, servlet("/hello", text("hi")));
        assertThat(get("/hello", "X-Small", "a".repeat(100)).statusCode()).isEqualTo(200);
        assertThat(get("/hello", "X-Big", "a".repeat(2000)).statusCode()).isEqualTo(431);
    }

    // --- compression ---

    private SproutServletWebServerFactory compressing() {
        SproutServletWebServerFactory factory = factory();
        Compression compression = new Compression();
        compression.setEnabled(true);
        compression.setMinResponseSize(DataSize.ofKilobytes(2));
        compression.setExcludedUserAgents(new String[] {"legacy-agent.*"});
        factory.setCompression(compression);
        return factory;
    }

    private static HttpServlet sized(String type, int bytes, boolean stream) {
        return new HttpServlet() {
            @Override
            protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.setContentType(type);
                byte[] body = "a".repeat(bytes).getBytes(StandardCharsets.US_ASCII);
                if (!stream) {
                    resp.setContentLength(body.length);
                }
                resp.getOutputStream().write(body);
                if (stream) {
                    resp.flushBuffer();
                }
            }
        };
    }

    private HttpResponse<byte[]> raw(HttpRequest.Builder request) throws Exception {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String gunzip(byte[] bytes) throws IOException {
        try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(bytes))) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    @Test
    void compressesLargeResponsesOfListedTypes() throws Exception {
        start(compressing(), servlet("/big", sized("text/plain", 5000, false)));
        HttpResponse<byte[]> response = raw(request("/big", "Accept-Encoding", "gzip"));
        assertThat(response.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(response.headers().firstValue("Vary")).hasValue("Accept-Encoding");
        assertThat(gunzip(response.body())).isEqualTo("a".repeat(5000));
    }

    @Test
    void compressesPostAndUnknownLengthResponses() throws Exception {
        start(compressing(), servlet("/stream", sized("application/json", 3000, true)));
        HttpResponse<byte[]> response = raw(request("/stream", "Accept-Encoding", "gzip")
                .POST(HttpRequest.BodyPublishers.ofString("{}")));
        assertThat(response.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(gunzip(response.body())).isEqualTo("a".repeat(3000));
    }

    /** One write larger than the response buffer commits it mid-write: the encoding must take the whole write. */
    @Test
    void compressesAWriteLargerThanTheResponseBufferWhole() throws Exception {
        start(compressing(), servlet("/large", sized("text/plain", 100_000, true)));
        HttpResponse<byte[]> response = raw(request("/large", "Accept-Encoding", "gzip"));
        assertThat(response.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(gunzip(response.body())).isEqualTo("a".repeat(100_000));
    }

    @Test
    void doesNotCompressSmallUnlistedOrExcludedResponses() throws Exception {
        start(compressing(), servlet("/small", sized("text/plain", 100, false)),
                servlet("/image", sized("image/png", 5000, false)), servlet("/big", sized("text/plain", 5000, false)));
        assertThat(raw(request("/small", "Accept-Encoding", "gzip")).headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(raw(request("/image", "Accept-Encoding", "gzip")).headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(raw(request("/big", "Accept-Encoding", "gzip", "User-Agent", "legacy-agent/1.0")).headers()
                .firstValue("Content-Encoding")).isEmpty();
        assertThat(raw(request("/big")).headers().firstValue("Content-Encoding")).isEmpty();
    }

    // --- server header ---

    @Test
    void sendsTheConfiguredServerHeaderOnly() throws Exception {
        start(factory(), servlet("/hello", text("hi")));
        assertThat(get("/hello").headers().firstValue("Server")).isEmpty();
        webServer.destroy();
        SproutServletWebServerFactory factory = factory();
        factory.setServerHeader("Sprout-Test");
        start(factory, servlet("/hello", text("hi")));
        assertThat(get("/hello").headers().firstValue("Server")).hasValue("Sprout-Test");
    }

    // --- dispatch ---

    @Test
    void forwardsAndIncludes() throws Exception {
        start(factory(), servlet("/target", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.getWriter().print("[" + req.getDispatcherType() + " " + req.getRequestURI() + " "
                        + req.getParameter("q") + " "
                        + req.getAttribute(RequestDispatcher.FORWARD_REQUEST_URI) + " "
                        + req.getAttribute(RequestDispatcher.INCLUDE_REQUEST_URI) + "]");
            }
        }), servlet("/forward", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException, ServletException {
                resp.getWriter().print("lost");
                req.getRequestDispatcher("/target?q=fwd").forward(req, resp);
            }
        }), servlet("/include", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException, ServletException {
                resp.getWriter().print("before");
                req.getRequestDispatcher("/target?q=inc").include(req, resp);
                resp.getWriter().print("after");
            }
        }));
        assertThat(get("/forward").body()).isEqualTo("[FORWARD /target fwd /forward null]");
        assertThat(get("/include").body()).isEqualTo("before[INCLUDE /include inc null /target]after");
    }

    @Test
    void filtersByUrlPatternServletNameAndDispatcherType() throws Exception {
        start(factory(), servlet("/plain", text("body")), context -> {
            context.addFilter("byUrl", tagging("url")).addMappingForUrlPatterns(null, false, "/plain");
            context.addFilter("byName", tagging("name")).addMappingForServletNames(null, true, "/plain-servlet");
            context.addFilter("onErrorOnly", tagging("error"))
                    .addMappingForUrlPatterns(EnumSet.of(DispatcherType.ERROR), false, "/*");
        });
        assertThat(get("/plain").headers().allValues("X-Tag")).containsExactly("url", "name");
    }

    private static Filter tagging(String tag) {
        return (request, response, chain) -> {
            ((HttpServletResponse) response).addHeader("X-Tag", tag);
            chain.doFilter(request, response);
        };
    }

    @Test
    void readsMultipartPartsWithinLimitsAndRejectsOversizedOnes() throws Exception {
        start(factory(), context -> {
            ServletRegistration.Dynamic registration = context.addServlet("upload", new HttpServlet() {
                @Override
                protected void doPost(HttpServletRequest req, HttpServletResponse resp)
                        throws IOException, ServletException {
                    try {
                        StringBuilder out = new StringBuilder();
                        for (Part part : req.getParts()) {
                            out.append(part.getName()).append('=').append(part.getSize()).append(';');
                        }
                        resp.getWriter().print(out.append(req.getParameter("field")));
                    } catch (IllegalStateException e) {
                        resp.setStatus(413);
                        resp.getWriter().print(e.getMessage());
                    }
                }
            });
            registration.addMapping("/upload");
            registration.setMultipartConfig(new MultipartConfigElement("", 100, 1000, 10));
        });
        assertThat(send(multipart(50)).body()).isEqualTo("field=5;file=50;value");
        HttpResponse<String> tooBig = send(multipart(150));
        assertThat(tooBig.statusCode()).isEqualTo(413);
        assertThat(tooBig.body()).contains("exceeds its maximum permitted size of 100 bytes");
    }

    private HttpRequest.Builder multipart(int fileSize) {
        String body = "--XyZ\r\nContent-Disposition: form-data; name=\"field\"\r\n\r\nvalue\r\n"
                + "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\n" + "b".repeat(fileSize) + "\r\n--XyZ--\r\n";
        return request("/upload", "Content-Type", "multipart/form-data; boundary=XyZ")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    @Test
    void honoursForwardedHeadersWhenEnabled() throws Exception {
        SproutServletWebServerFactory factory = factory();
        factory.setUseForwardHeaders(true);
        start(factory, servlet("/origin", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.getWriter().print(req.getScheme() + "|" + req.getServerName() + "|" + req.getServerPort() + "|"
                        + req.getRemoteAddr() + "|" + req.isSecure() + "|" + req.getRequestURL());
            }
        }));
        assertThat(get("/origin", "X-Forwarded-Proto", "https", "X-Forwarded-Host", "shop.example",
                "X-Forwarded-For", "203.0.113.9, 10.0.0.1").body())
                .isEqualTo("https|shop.example|443|203.0.113.9|true|https://shop.example/origin");
        assertThat(get("/origin", "Forwarded", "for=198.51.100.7;proto=http;host=\"api.example:8443\"").body())
                .isEqualTo("http|api.example|8443|198.51.100.7|false|http://api.example:8443/origin");
    }

    // --- async ---

    @Test
    void completesAsyncRequestsFromAnotherThread() throws Exception {
        start(factory(), servlet("/async", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                AsyncContext async = req.startAsync();
                async.start(() -> {
                    try {
                        async.getResponse().getWriter().print("async " + req.isAsyncStarted());
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                    async.complete();
                });
            }
        }));
        assertThat(get("/async").body()).isEqualTo("async true");
    }

    @Test
    void asyncTimeoutWithoutListenerDecisionIsAnError() throws Exception {
        SproutServletWebServerFactory factory = factory();
        factory.setAsyncTimeout(Duration.ofMillis(50));
        start(factory, servlet("/never", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                req.startAsync();
            }
        }));
        assertThat(get("/never").statusCode()).isEqualTo(500);
    }

    // --- graceful shutdown ---

    private ServletContextInitializer blocking(CountDownLatch entered, CountDownLatch release) {
        return servlet("/slow", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
                resp.getWriter().print("finished");
            }
        });
    }

    private SproutServletWebServerFactory graceful() {
        SproutServletWebServerFactory factory = factory();
        factory.setShutdown(Shutdown.GRACEFUL);
        return factory;
    }

    @Test
    void gracefulShutdownWaitsForInFlightRequestThenReportsIdle() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        start(graceful(), blocking(entered, release));
        CompletableFuture<HttpResponse<String>> inFlight = client.sendAsync(request("/slow").build(),
                HttpResponse.BodyHandlers.ofString());
        entered.await();
        AtomicReference<GracefulShutdownResult> result = new AtomicReference<>();
        CountDownLatch reported = new CountDownLatch(1);
        webServer.shutDownGracefully(r -> {
            result.set(r);
            reported.countDown();
        });
        assertThat(result.get()).isNull();
        release.countDown();
        HttpResponse<String> response = inFlight.get();
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("finished");
        reported.await();
        assertThat(result.get()).isEqualTo(GracefulShutdownResult.IDLE);
    }

    @Test
    void gracefulShutdownWaitsForInFlightAsyncRequest() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<AsyncContext> pending = new AtomicReference<>();
        start(graceful(), servlet("/async", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                pending.set(req.startAsync());
                pending.get().setTimeout(0);
                started.countDown();
            }
        }));
        CompletableFuture<HttpResponse<String>> inFlight = client.sendAsync(request("/async").build(),
                HttpResponse.BodyHandlers.ofString());
        started.await();
        AtomicReference<GracefulShutdownResult> result = new AtomicReference<>();
        CountDownLatch reported = new CountDownLatch(1);
        webServer.shutDownGracefully(r -> {
            result.set(r);
            reported.countDown();
        });
        assertThat(result.get()).isNull();
        pending.get().getResponse().getWriter().print("async done");
        pending.get().complete();
        assertThat(inFlight.get().body()).isEqualTo("async done");
        reported.await();
        assertThat(result.get()).isEqualTo(GracefulShutdownResult.IDLE);
    }

    @Test
    void stopDuringGracefulShutdownReportsRequestsActive() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        start(graceful(), blocking(entered, release));
        client.sendAsync(request("/slow").build(), HttpResponse.BodyHandlers.ofString());
        entered.await();
        AtomicReference<GracefulShutdownResult> result = new AtomicReference<>();
        webServer.shutDownGracefully(result::set);
        webServer.stop();
        release.countDown();
        assertThat(result.get()).isEqualTo(GracefulShutdownResult.REQUESTS_ACTIVE);
    }

    @Test
    void immediateShutdownReportsImmediate() {
        start(factory(), servlet("/hello", text("hi")));
        AtomicReference<GracefulShutdownResult> result = new AtomicReference<>();
        webServer.shutDownGracefully(result::set);
        assertThat(result.get()).isEqualTo(GracefulShutdownResult.IMMEDIATE);
    }

    @Test
    void writesTheAccessLogThroughSlf4j(CapturedOutput output) throws Exception {
        SproutServletWebServerFactory factory = factory();
        factory.setAccessLogPattern("%m %U%q %s %b");
        start(factory, servlet("/logged", text("12345")));
        get("/logged?x=1");
        assertThat(output).contains("io.sprout.accesslog - GET /logged?x=1 200 5");
    }
}
