package io.sprout.boot.async;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The platform-pool case that an asynchronous exchange exists for: with eight workers, a thousand pending
 * {@code DeferredResult} long-polls hold no worker, so ordinary requests are still served while they wait, and all
 * thousand are answered once completed from another thread.
 */
@SpringBootTest(classes = LongPollIT.App.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"sprout.server.execution-mode=nio", "sprout.server.thread-type=platform",
                "sprout.server.thread-pool-size=8", "spring.mvc.async.request-timeout=120s"})
class LongPollIT {

    private static final int POLLS = 1000;

    @LocalServerPort
    int port;

    @Autowired
    Polls polls;

    @Autowired
    org.springframework.boot.web.server.context.WebServerApplicationContext context;

    @Test
    void servesOrdinaryRequestsWhileAThousandLongPollsWaitOnEightWorkers() throws Exception {
        List<Socket> clients = new ArrayList<>(POLLS);
        try {
            for (int i = 0; i < POLLS; i++) {
                Socket socket = connect();
                socket.getOutputStream().write(request("/poll"));
                clients.add(socket);
            }
            assertThat(polls.arrived.await(60, TimeUnit.SECONDS)).as("all long-polls reached the controller").isTrue();

            for (int i = 0; i < 20; i++) {
                try (Socket socket = connect()) {
                    socket.getOutputStream().write(request("/ping"));
                    assertThat(readResponse(socket.getInputStream(), "pong")).contains("HTTP/1.1 200");
                }
            }

            // A poll's controller counts the latch down before its handler returns and the exchange is detached
            // from its worker: the last few may detach just after the pings, on a busy machine.
            var stats = ((io.sprout.boot.web.SproutWebServer) context.getWebServer()).stats();
            Awaitility.await("long-polls holding no thread").atMost(Duration.ofSeconds(30))
                    .until(stats::exchangesDetached, detached -> detached == POLLS);

            polls.releaseAll();
            for (Socket socket : clients) {
                assertThat(readResponse(socket.getInputStream(), "done")).startsWith("HTTP/1.1 200");
            }
            // An exchange ends just after its last byte went out, so a client may read its response first; a
            // connection reads its next request only once its exchange has ended, so one more request settles it.
            for (Socket socket : clients) {
                socket.getOutputStream().write(request("/ping"));
                assertThat(readResponse(socket.getInputStream(), "pong")).startsWith("HTTP/1.1 200");
            }
            assertThat(stats.exchangesDetached()).as("every long-poll ended").isZero();
        } finally {
            for (Socket socket : clients) {
                socket.close();
            }
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        socket.setSoTimeout(60_000);
        return socket;
    }

    private static byte[] request(String path) {
        return ("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** Reads until the body text has arrived (or the server closes). */
    private static String readResponse(InputStream in, String bodyText) throws IOException {
        StringBuilder text = new StringBuilder();
        byte[] chunk = new byte[1024];
        while (!text.toString().contains("\r\n\r\n") || !text.toString().endsWith(bodyText)) {
            int count = in.read(chunk);
            if (count < 0) {
                break;
            }
            text.append(new String(chunk, 0, count, StandardCharsets.ISO_8859_1));
        }
        return text.toString();
    }

    /** The pending long-polls. */
    static final class Polls {
        final Queue<DeferredResult<String>> pending = new ConcurrentLinkedQueue<>();
        final CountDownLatch arrived = new CountDownLatch(POLLS);

        void releaseAll() {
            DeferredResult<String> next;
            while ((next = pending.poll()) != null) {
                next.setResult("done");
            }
        }
    }

    @RestController
    static class PollController {

        private final Polls polls;

        PollController(Polls polls) {
            this.polls = polls;
        }

        @GetMapping("/poll")
        DeferredResult<String> poll() {
            DeferredResult<String> result = new DeferredResult<>();
            polls.pending.add(result);
            polls.arrived.countDown();
            return result;
        }

        @GetMapping("/ping")
        String ping() {
            return "pong";
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import(PollController.class)
    static class App {

        @org.springframework.context.annotation.Bean
        Polls polls() {
            return new Polls();
        }
    }
}
