package io.sprout.boot.web;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code sprout.server.warm-up.*} in a Spring MVC application, in every engine combination: the requests go through
 * Spring's dispatcher before any port is open, the start-up log reports them, failures and the time limit are
 * reported without stopping start-up, and nothing happens unless asked for.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
@ExtendWith(OutputCaptureExtension.class)
class WarmUpIT {

    @Parameter
    Engines engines;

    private ConfigurableApplicationContext context;

    /** The port the server reported at each request: -1 while it has not opened its ports. */
    static final List<Integer> PORTS_SEEN = new CopyOnWriteArrayList<>();
    /** Holds {@code /stall} until the test ends. */
    static volatile CountDownLatch release = new CountDownLatch(1);

    @RestController
    static class CountingController {

        private final WebServerApplicationContext context;

        CountingController(WebServerApplicationContext context) {
            this.context = context;
        }

        @GetMapping("/count")
        String count() {
            PORTS_SEEN.add(context.getWebServer().getPort());
            return "counted";
        }

        @GetMapping("/stall")
        String stall() throws InterruptedException {
            release.await();
            return "released";
        }
    }

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import(CountingController.class)
    static class WarmedApplication {
    }

    private void start(String... properties) {
        PORTS_SEEN.clear();
        release = new CountDownLatch(1);
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--server.address=127.0.0.1",
                "--spring.main.banner-mode=off", "--sprout.server.execution-mode=" + engines.mode(),
                "--sprout.server.thread-type=" + engines.threads(), "--sprout.server.thread-pool-size=16"));
        for (String property : properties) {
            args.add("--" + property);
        }
        context = new SpringApplicationBuilder(WarmedApplication.class).web(WebApplicationType.SERVLET)
                .run(args.toArray(String[]::new));
    }

    @AfterEach
    void stop() {
        release.countDown();
        if (context != null) {
            context.close();
        }
    }

    private SproutWebServer server() {
        return (SproutWebServer) ((WebServerApplicationContext) context).getWebServer();
    }

    @Test
    void servesTheWarmUpThroughSpringBeforeThePortsOpen(CapturedOutput output) {
        start("sprout.server.warm-up.enabled=true", "sprout.server.warm-up.paths=/count,/count?again=1",
                "sprout.server.warm-up.requests=300", "sprout.server.warm-up.concurrency=4");

        assertThat(PORTS_SEEN).hasSize(300).containsOnly(-1);
        assertThat(server().stats().requestsTotal()).as("requests the server's meters saw").isZero();
        assertThat(output).contains("Sprout warm-up of [/count, /count?again=1]: 300 requests answered in ");
    }

    @Test
    void theManagementServerOnItsOwnPortDoesNotWarmUp(CapturedOutput output) {
        start("sprout.server.warm-up.enabled=true", "sprout.server.warm-up.paths=/count",
                "sprout.server.warm-up.requests=10", "management.server.port=0");

        assertThat(PORTS_SEEN).hasSize(10);
        assertThat(output.getAll().split("Sprout warm-up of ", -1)).as("warm-up lines").hasSize(2);
        assertThat(output).contains("Sprout warm-up of [/count]: 10 requests answered in ");
    }

    @Test
    void isOffByDefault(CapturedOutput output) {
        start();

        assertThat(PORTS_SEEN).isEmpty();
        assertThat(output).doesNotContain("Sprout warm-up");
    }

    @Test
    void failuresAreLoggedAndStartUpGoesOn(CapturedOutput output) {
        start("sprout.server.warm-up.enabled=true", "sprout.server.warm-up.paths=/count,/missing",
                "sprout.server.warm-up.requests=10");

        assertThat(server().getPort()).isPositive();
        assertThat(PORTS_SEEN).hasSize(5);
        assertThat(output).contains("WARN").contains(
                "Sprout warm-up of [/count, /missing]: 5 requests answered, 5 failed (first: GET /missing: 404)");
    }

    @Test
    void canGoOnUntilTheJitSettles(CapturedOutput output) {
        start("sprout.server.warm-up.enabled=true", "sprout.server.warm-up.paths=/count",
                "sprout.server.warm-up.requests=20", "sprout.server.warm-up.until-compiled=true",
                "sprout.server.warm-up.timeout=2s");

        assertThat(server().getPort()).isPositive();
        assertThat(PORTS_SEEN).hasSizeGreaterThanOrEqualTo(20).containsOnly(-1);
        // Which of the two depends on this JVM's compiler (WarmUpDriverTest scripts both); either is reported.
        assertThat(output).containsPattern("Sprout warm-up of \\[/count\\]: \\d+ requests answered"
                + "(, until the JIT settled|, the JIT still compiling, stopped at the time limit) in ");
    }

    @Test
    void stopsAtItsTimeLimit(CapturedOutput output) {
        start("sprout.server.warm-up.enabled=true", "sprout.server.warm-up.paths=/stall",
                "sprout.server.warm-up.requests=5", "sprout.server.warm-up.concurrency=1",
                "sprout.server.warm-up.timeout=300ms");

        assertThat(server().getPort()).isPositive();
        // The stalled request is counted as failed only if its own time-out fires before the warm-up gives up.
        assertThat(output).contains("Sprout warm-up of [/stall]: 0 requests answered")
                .containsPattern("Sprout warm-up of \\[/stall\\]: .*stopped at the time limit in");
    }
}
