package io.sprout.engine.hello;

import io.sprout.engine.ExecutionMode;
import io.sprout.engine.Http2Config;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.HttpResponse;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.SproutServer;
import io.sprout.engine.ThreadType;
import io.sprout.engine.WebSocket;
import io.sprout.engine.WebSocketConfig;
import io.sprout.engine.WebSocketHandler;
import io.sprout.engine.http.HeaderNames;
import io.sprout.engine.server.Sprout;
import io.sprout.engine.websocket.WebSocketUpgrade;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/**
 * A runnable server answering {@code Hello, World!} to every GET, and echoing every WebSocket message (limits of
 * 16 MiB, as the Autobahn|Testsuite needs), for benchmarks, conformance runs and smoke checks:
 * {@code java -jar sprout-engine.jar --port 8080 --execution-mode nio --thread-type virtual [--thread-pool-size N]
 * [--http2 true]} (HTTP/2 by prior knowledge and h2c upgrade next to HTTP/1.1).
 * Stops on SIGTERM/Ctrl-C.
 *
 * <p>Public because it is a program, started by name as the jar's {@code Main-Class} and by
 * {@code gatling/autobahn/run.sh}; no package depends on it, and it uses only the exported API and {@code http}'s
 * header names.
 */
public final class HelloServer {

    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    private static final int ECHO_LIMIT = 16 * 1024 * 1024;
    private static final WebSocketConfig ECHO_LIMITS = WebSocketConfig.DEFAULT
            .withMaxMessageSizes(ECHO_LIMIT, ECHO_LIMIT).withMaxQueuedBytes(4L * ECHO_LIMIT);

    private HelloServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        ServerConfig config;
        try {
            config = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println("usage: --port N --execution-mode nio|hybrid --thread-type platform|virtual"
                    + " [--thread-pool-size N] [--selector-threads N] [--http2 true|false]");
            System.exit(2);
            return;
        }
        SproutServer server = Sprout.server(config, (request, response) -> {
            if (WebSocketUpgrade.requested(request)) {
                webSocketEcho(request, response);
                return;
            }
            if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
                response.status(405);
                response.headers().set("Allow", "GET, HEAD");
                return;
            }
            response.headers().set(HeaderNames.CONTENT_TYPE, "text/plain");
            response.body().write(HELLO);
        });
        server.start();
        System.out.printf("Sprout hello server on port %d (%s, %s threads)%n", server.port(),
                config.executionMode().name().toLowerCase(), config.threadType().name().toLowerCase());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop();
            stopped.countDown();
        }));
        stopped.await();
    }

    private static void webSocketEcho(HttpRequest request, HttpResponse response) throws IOException {
        String rejection = WebSocketUpgrade.rejection(request);
        if (rejection != null) {
            WebSocketUpgrade.reject(response, rejection);
            return;
        }
        WebSocketUpgrade.accept(request, response, ECHO_LIMITS, null, new WebSocketHandler() {
            @Override
            public void onText(WebSocket socket, String message) {
                socket.sendText(message, true);
            }

            @Override
            public void onBinary(WebSocket socket, ByteBuffer message) {
                socket.sendBinary(message, true);
            }
        });
    }

    static ServerConfig parse(String[] args) {
        ServerConfig.Builder builder = ServerConfig.builder();
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("Missing value for " + args[i]);
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--port" -> builder.port(integer("--port", value));
                case "--execution-mode" -> builder.executionMode(ExecutionMode.parse(value));
                case "--thread-type" -> builder.threadType(ThreadType.parse(value));
                case "--thread-pool-size" -> builder.threadPoolSize(integer("--thread-pool-size", value));
                case "--selector-threads" -> builder.selectorThreads(integer("--selector-threads", value));
                case "--http2" -> builder.http2(Boolean.parseBoolean(value) ? Http2Config.DEFAULT : null);
                default -> throw new IllegalArgumentException("Unknown option " + args[i]);
            }
        }
        return builder.build();
    }

    private static int integer(String option, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a whole number but was '" + value + "'");
        }
    }
}
