package io.sprout.engine.hello;

import io.sprout.engine.ExecutionMode;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.SproutServer;
import io.sprout.engine.ThreadType;
import io.sprout.engine.http.HeaderNames;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/**
 * A runnable server answering {@code Hello, World!} to every GET, for benchmarks and smoke checks:
 * {@code java -jar sprout-engine.jar --port 8080 --execution-mode nio --thread-type virtual [--thread-pool-size N]}.
 * Stops on SIGTERM/Ctrl-C.
 */
public final class HelloServer {

    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

    private HelloServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        ServerConfig config;
        try {
            config = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println("usage: --port N --execution-mode nio|hybrid --thread-type platform|virtual"
                    + " [--thread-pool-size N] [--selector-threads N]");
            System.exit(2);
            return;
        }
        SproutServer server = SproutServer.create(config, (request, response) -> {
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
