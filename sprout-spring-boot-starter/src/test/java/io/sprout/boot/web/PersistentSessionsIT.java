package io.sprout.boot.web;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.servlet.Session;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;

import static io.sprout.boot.web.WebServerUnderTest.servlet;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sessions across restarts, in every engine combination: a stop and start of one server keeps them (the context
 * lives on); with {@code server.servlet.session.persistent} they also survive the server being destroyed and a new
 * one created (what a Spring DevTools restart does), minus the attributes that cannot be serialised.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
@ExtendWith(OutputCaptureExtension.class)
class PersistentSessionsIT {

    @Parameter
    Engines engines;

    @TempDir
    Path storeDir;

    private WebServerUnderTest server;

    @AfterEach
    void destroy() {
        if (server != null) {
            server.close();
        }
    }

    /** Counts visits in the session; {@code ?unserializable} also stores a value that cannot be serialised. */
    private static HttpServlet counter() {
        return new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                HttpSession session = req.getSession();
                Integer visits = (Integer) session.getAttribute("visits");
                session.setAttribute("visits", visits == null ? 1 : visits + 1);
                if (req.getParameter("unserializable") != null) {
                    session.setAttribute("thread", Thread.currentThread());
                }
                resp.getWriter().print(session.getId() + "|" + session.getAttribute("visits") + "|"
                        + (session.getAttribute("thread") != null));
            }
        };
    }

    private void start(boolean persistent) {
        SproutServletWebServerFactory factory = WebServerUnderTest.factory(engines);
        Session session = new Session();
        session.setPersistent(persistent);
        session.setStoreDir(storeDir.toFile());
        factory.setSession(session);
        server = WebServerUnderTest.start(factory, servlet("/visit", counter()));
    }

    private static String cookie(HttpResponse<String> response) {
        return response.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
    }

    @Test
    void aStopAndStartOfTheServerKeepsSessions() {
        start(false);
        HttpResponse<String> first = server.get("/visit");
        String id = first.body().split("\\|")[0];
        server.webServer().stop();
        server.webServer().start();
        assertThat(server.get("/visit", "Cookie", cookie(first)).body()).isEqualTo(id + "|2|false");
    }

    @Test
    void persistentSessionsOutliveTheServerWithoutWhatCannotBeSerialised(CapturedOutput output) {
        start(true);
        HttpResponse<String> first = server.get("/visit?unserializable");
        String id = first.body().split("\\|")[0];
        assertThat(first.body()).isEqualTo(id + "|1|true");
        server.close();
        assertThat(storeDir.resolve("SESSIONS.ser")).exists();
        assertThat(output).contains("Not persisting attribute 'thread' of session " + id);

        start(true);
        assertThat(server.get("/visit", "Cookie", cookie(first)).body()).isEqualTo(id + "|2|false");
        assertThat(storeDir.resolve("SESSIONS.ser")).as("read once, then deleted").doesNotExist();
    }

    @Test
    void sessionsThatAreNotPersistentEndWithTheServer() {
        start(false);
        HttpResponse<String> first = server.get("/visit");
        String id = first.body().split("\\|")[0];
        server.close();
        start(false);
        String next = server.get("/visit", "Cookie", cookie(first)).body();
        assertThat(next).endsWith("|1|false").doesNotStartWith(id);
        assertThat(storeDir.resolve("SESSIONS.ser")).doesNotExist();
    }
}
