package io.sprout.boot.servlet;

import io.sprout.engine.RequestBodyException;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The whole container (mapping, filters, request, response, errors, async) over in-memory engine fakes. */
class ServletRequestHandlerTest {

    @TempDir
    Path temp;

    private SproutServletContext context;

    @AfterEach
    void destroy() {
        if (context != null) {
            context.destroy();
        }
    }

    private ServletRequestHandler handler(ContainerConfig config, HttpServlet servlet, String... patterns)
            throws ServletException {
        context = new SproutServletContext(config);
        var registration = context.addServlet("app", servlet);
        registration.addMapping(patterns);
        registration.setAsyncSupported(true);
        context.start();
        return new ServletRequestHandler(context);
    }

    private FakeHttpResponse serve(ServletRequestHandler handler, FakeHttpRequest request) throws Exception {
        FakeHttpResponse response = new FakeHttpResponse();
        handler.handle(request, response);
        FakeAsyncExchange async = request.asyncExchange();
        if (async != null) {
            async.handlerReturned();
            assertThat(async.awaitEnd(java.time.Duration.ofSeconds(10))).as("the async exchange completed").isTrue();
        }
        return response;
    }

    private static HttpServlet writing(String text) {
        return new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.setContentType("text/plain;charset=UTF-8");
                resp.getWriter().print(text);
            }
        };
    }

    @Test
    void buffersASmallBodySoTheEngineKnowsItsLength() throws Exception {
        FakeHttpResponse response = serve(handler(ContainerConfig.defaults(temp), writing("héllo"), "/hi"),
                FakeHttpRequest.get("/hi"));
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.headers().get("Content-Type")).isEqualTo("text/plain;charset=UTF-8");
        assertThat(response.committedComplete()).isTrue();
        assertThat(response.text()).isEqualTo("héllo");
        assertThat(response.closed()).isTrue();
    }

    @Test
    void growsTheBufferUpToItsSizeBeforeCommitting() throws Exception {
        String medium = "m".repeat(5000);
        FakeHttpResponse response = serve(handler(ContainerConfig.defaults(temp), writing(medium), "/m"),
                FakeHttpRequest.get("/m"));
        assertThat(response.committedComplete()).isTrue();
        assertThat(response.text()).isEqualTo(medium);
    }

    @Test
    void streamsABodyLargerThanTheBufferWithoutALength() throws Exception {
        String big = "x".repeat(20_000);
        FakeHttpResponse response = serve(handler(ContainerConfig.defaults(temp), writing(big), "/big"),
                FakeHttpRequest.get("/big"));
        assertThat(response.committedComplete()).isFalse();
        assertThat(response.declaredLength()).isEqualTo(-1);
        assertThat(response.text()).isEqualTo(big);
    }

    @Test
    void answersUnmappedPathsWith404() throws Exception {
        FakeHttpResponse response = serve(handler(ContainerConfig.defaults(temp), writing("x"), "/only"),
                FakeHttpRequest.get("/other"));
        assertThat(response.status()).isEqualTo(404);
        assertThat(response.text()).isEqualTo("HTTP Status 404");
    }

    @Test
    void rejectsPathsEscapingTheRootWith400() throws Exception {
        FakeHttpResponse response = serve(handler(ContainerConfig.defaults(temp), writing("x"), "/"),
                FakeHttpRequest.get("/a/../../etc/passwd"));
        assertThat(response.status()).isEqualTo(400);
    }

    @Test
    void answersOutsideTheContextPathWith404AndRedirectsTheBarePath() throws Exception {
        ServletRequestHandler handler = handler(ContainerConfig.defaults(temp).withContextPath("/app"),
                writing("in"), "/");
        assertThat(serve(handler, FakeHttpRequest.get("/elsewhere")).status()).isEqualTo(404);
        FakeHttpResponse redirect = serve(handler, FakeHttpRequest.get("/app?x=1"));
        assertThat(redirect.status()).isEqualTo(302);
        assertThat(redirect.headers().get("Location")).isEqualTo("/app/?x=1");
        assertThat(serve(handler, FakeHttpRequest.get("/app/page")).text()).isEqualTo("in");
    }

    @Test
    void leavesABodyTheEngineRejectedToTheEngineHoweverTheServletWrappedTheFailure() throws Exception {
        HttpServlet upload = new HttpServlet() {
            @Override
            protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws ServletException {
                try {
                    req.getInputStream().readAllBytes();
                } catch (IOException e) {
                    throw new ServletException("Could not read the upload", e);
                }
            }
        };
        ServletRequestHandler handler = handler(ContainerConfig.defaults(temp), upload, "/upload");
        RequestBodyException rejected = new RequestBodyException(400, "Invalid chunk size");
        FakeHttpRequest request = new FakeHttpRequest("POST", "/upload", "").bodyFailsWith(rejected);
        FakeHttpResponse response = new FakeHttpResponse();

        assertThatThrownBy(() -> handler.handle(request, response)).as("the engine's refusal, unwrapped")
                .isSameAs(rejected);
        assertThat(response.committed()).as("no error page: the engine answers 400").isFalse();
        assertThat(response.text()).isEmpty();
    }

    @Test
    void leavesABodyTheEngineRejectedToTheEngineEvenWhenTheServletAnsweredItself() throws Exception {
        HttpServlet upload = new HttpServlet() {
            @Override
            protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                try {
                    req.getInputStream().readAllBytes();
                } catch (IOException unreadable) {
                    // As Spring does for an unreadable message: its own 400, through the error page.
                    resp.sendError(400, "Unreadable");
                }
            }
        };
        ServletRequestHandler handler = handler(ContainerConfig.defaults(temp), upload, "/upload");
        RequestBodyException tooSlow = new RequestBodyException(408, "The request body did not arrive in time");
        FakeHttpRequest request = new FakeHttpRequest("POST", "/upload", "").bodyFailsWith(tooSlow);
        FakeHttpResponse response = new FakeHttpResponse();

        assertThatThrownBy(() -> handler.handle(request, response)).isSameAs(tooSlow);
        assertThat(response.committed()).as("no error page: the engine answers 408").isFalse();
        assertThat(response.text()).isEmpty();
    }

    @Test
    void readsQueryAndFormParametersInOrder() throws Exception {
        HttpServlet params = new HttpServlet() {
            @Override
            protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.getWriter().print(List.of(req.getParameterValues("a")) + " " + req.getParameter("b"));
            }
        };
        FakeHttpResponse response = serve(handler(ContainerConfig.defaults(temp), params, "/p"),
                new FakeHttpRequest("POST", "/p?a=1&a=2", "a=3&b=x+y%21", "Content-Type",
                        "application/x-www-form-urlencoded"));
        assertThat(response.text()).isEqualTo("[1, 2, 3] x y!");
    }

    @Test
    void parsesCookiesAndLocales() throws Exception {
        HttpServlet cookies = new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.getWriter().print(req.getCookies()[1].getValue() + " " + req.getLocale() + " "
                        + req.getHeader("accept-language"));
            }
        };
        FakeHttpResponse response = serve(handler(ContainerConfig.defaults(temp), cookies, "/c"),
                FakeHttpRequest.get("/c", "Cookie", "a=1; b=\"two\"", "Accept-Language", "fr;q=0.5, de-CH"));
        assertThat(response.text()).isEqualTo("two de_CH fr;q=0.5, de-CH");
    }

    @Test
    void resetBufferDropsWrittenCharactersBeforeCommit() throws Exception {
        HttpServlet reset = new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.getWriter().print("discarded");
                resp.resetBuffer();
                resp.getWriter().print("kept");
            }
        };
        assertThat(serve(handler(ContainerConfig.defaults(temp), reset, "/r"), FakeHttpRequest.get("/r")).text())
                .isEqualTo("kept");
    }

    @Test
    void redirectsToAnAbsoluteLocation() throws Exception {
        HttpServlet redirect = new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.sendRedirect("next");
            }
        };
        FakeHttpResponse response = serve(handler(ContainerConfig.defaults(temp), redirect, "/dir/*"),
                FakeHttpRequest.get("/dir/page"));
        assertThat(response.status()).isEqualTo(302);
        assertThat(response.headers().get("Location")).isEqualTo("http://localhost:8080/dir/next");
    }

    @Test
    void completesAnAsyncRequestFromAnotherThread() throws Exception {
        HttpServlet async = new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                AsyncContext asyncContext = req.startAsync();
                Thread.ofVirtual().start(() -> {
                    try {
                        asyncContext.getResponse().getWriter().print("later");
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                    asyncContext.complete();
                });
            }
        };
        FakeHttpResponse response = serve(handler(ContainerConfig.defaults(temp), async, "/a"),
                FakeHttpRequest.get("/a"));
        assertThat(response.text()).isEqualTo("later");
        assertThat(response.closed()).isTrue();
    }

    @Test
    void dispatchesAsyncBackToTheServlet() throws Exception {
        HttpServlet async = new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                if (req.getDispatcherType() == jakarta.servlet.DispatcherType.ASYNC) {
                    resp.getWriter().print("dispatched " + req.getAttribute("result") + " "
                            + req.getAttribute(AsyncContext.ASYNC_REQUEST_URI));
                    return;
                }
                AsyncContext asyncContext = req.startAsync();
                Thread.ofVirtual().start(() -> {
                    req.setAttribute("result", 42);
                    asyncContext.dispatch();
                });
            }
        };
        assertThat(serve(handler(ContainerConfig.defaults(temp), async, "/a"), FakeHttpRequest.get("/a?q=1")).text())
                .isEqualTo("dispatched 42 /a");
    }

    @Test
    void startAsyncFailsWhenTheServletIsNotAsyncSupported() throws Exception {
        context = new SproutServletContext(ContainerConfig.defaults(temp));
        context.addServlet("sync", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                try {
                    req.startAsync();
                } catch (IllegalStateException expected) {
                    resp.getWriter().print("refused");
                }
            }
        }).addMapping("/s");
        context.start();
        assertThat(serve(new ServletRequestHandler(context), FakeHttpRequest.get("/s")).text()).isEqualTo("refused");
    }

    @Test
    void registrationIsClosedOnceStarted() throws Exception {
        handler(ContainerConfig.defaults(temp), writing("x"), "/x");
        org.assertj.core.api.Assertions.assertThatIllegalStateException()
                .isThrownBy(() -> context.addServlet("late", writing("y")));
    }
}
