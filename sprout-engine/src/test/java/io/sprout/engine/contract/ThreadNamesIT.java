package io.sprout.engine.contract;

import io.sprout.engine.AsyncExchange;
import io.sprout.engine.ExecutionMode;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.HttpResponse;
import io.sprout.engine.ThreadType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every platform thread of a server carries its port, the real one when it was started on port 0, so that two
 * servers of one JVM (an application and its management port) can be told apart in a thread dump.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Combination.class)
class ThreadNamesIT {

    private static final String HOST = "Host: test\r\n\r\n";

    @Parameter
    Combination combination;

    @Test
    void namesEveryServerThreadAfterTheBoundPort() {
        try (RunningServer server = RunningServer.start(combination, ThreadNamesIT::answer);
                RawClient client = server.connect()) {
            int port = server.port();
            String prefix = "sprout-" + port + "-";

            String handlerThread = text(client.send("GET /now HTTP/1.1\r\n" + HOST).read());
            // Fired by the server's timer: the exchange's own timeout, so the timer thread exists afterwards.
            client.send("GET /later HTTP/1.1\r\n" + HOST).read();

            if (combination.threadType == ThreadType.PLATFORM) {
                assertThat(handlerThread).matches(prefix + "worker-\\d+");
            } else {
                // Virtual workers stay unnamed: one name per task would cost a string for a thread of one task.
                assertThat(handlerThread).isEmpty();
            }
            Set<String> own = threadsNamed(prefix);
            assertThat(own).contains(prefix + "timer");
            String mode = combination.mode == ExecutionMode.NIO ? "nio" : "hybrid";
            assertThat(own).contains(prefix + mode + "-acceptor", prefix + mode + "-1", prefix + mode + "-2");
        }
    }

    private static void answer(HttpRequest request, HttpResponse response) throws IOException {
        if (request.path().equals("/later")) {
            AsyncExchange exchange = request.startAsync();
            exchange.timeout(Duration.ofMillis(1), () -> {
                send(response, "late");
                exchange.complete();
            });
        } else {
            send(response, Thread.currentThread().getName());
        }
    }

    private static void send(HttpResponse response, String text) {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        response.contentLength(body.length);
        try {
            response.body().write(body);
        } catch (IOException clientGone) {
            throw new java.io.UncheckedIOException(clientGone);
        }
    }

    private static String text(RawClient.Response response) {
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    private static Set<String> threadsNamed(String prefix) {
        Set<String> names = new TreeSet<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().startsWith(prefix)) {
                names.add(thread.getName());
            }
        }
        return names;
    }
}
