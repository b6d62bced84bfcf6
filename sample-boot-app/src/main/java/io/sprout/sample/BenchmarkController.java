package io.sprout.sample;

import java.util.List;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The seed's benchmark endpoints plus {@code /db}. This one source serves both web stacks: every method returns a
 * plain value, so on Spring MVC it runs on the server's worker thread and on WebFlux it runs on Boot's blocking
 * executor (virtual threads, see {@code src/reactive/resources/config/application.properties}).
 * <p>
 * Parameters are bounded with Bean Validation constraints; Spring's built-in method validation turns a violation
 * into a 400 with Boot's error body on both stacks, and a value that is not a number is a 400 as well.
 * ({@code @Validated} on the class is deliberately absent: its AOP proxy would turn violations into 500s.)
 * {@code POST /echo} streams the request body, which needs stack-specific types: see {@code EchoController} in
 * {@code src/servlet/java} and {@code src/reactive/java}.
 */
@RestController
@RequestMapping("/benchmark")
public class BenchmarkController {

    private static final String VERSION = "1.0";

    private final BenchmarkWork work;

    private final ItemRepository items;

    private final ServerName serverName;

    BenchmarkController(BenchmarkWork work, ItemRepository items, ServerName serverName) {
        this.work = work;
        this.items = items;
        this.serverName = serverName;
    }

    @GetMapping("/hello")
    public String hello() {
        return "Hello, World!";
    }

    @GetMapping("/json")
    public JsonMessage json() {
        return new JsonMessage("success", System.currentTimeMillis(),
                new JsonMessage.Data("Hello, JSON!", this.serverName.get(), VERSION));
    }

    @GetMapping("/cpu")
    public String cpu(@RequestParam(defaultValue = "35") @Min(0) @Max(BenchmarkWork.MAX_FIBONACCI_N) int n) {
        return "Fibonacci(" + n + ") = " + this.work.fibonacci(n);
    }

    @GetMapping("/cpu-heavy")
    public String cpuHeavy(
            @RequestParam(defaultValue = "10000") @Min(2) @Max(BenchmarkWork.MAX_SIEVE_LIMIT) int limit) {
        return "Primes up to " + limit + ": " + this.work.countPrimes(limit);
    }

    @GetMapping("/latency")
    public String latency(@RequestParam(defaultValue = "100") @Min(0) @Max(BenchmarkWork.MAX_SLEEP_MILLIS) int ms) {
        this.work.sleep(ms);
        return "Slept " + ms + " ms";
    }

    @GetMapping("/mixed")
    public String mixed() {
        long fibonacci = this.work.fibonacci(20);
        this.work.sleep(50);
        return "Fibonacci(20) = " + fibonacci + ", slept 50 ms";
    }

    /**
     * {@code size} bytes as {@code application/octet-stream} with a {@code Content-Length}, written by the handler
     * on the calling thread; {@code StreamController} serves the same bytes streamed.
     */
    @GetMapping(path = "/bytes", produces = MediaType.APPLICATION_OCTET_STREAM_VALUE)
    public byte[] bytes(
            @RequestParam(defaultValue = "1048576") @Min(0) @Max(BenchmarkWork.MAX_PAYLOAD_BYTES) int size) {
        return this.work.payload(size);
    }

    @GetMapping("/health")
    public String health() {
        return "OK";
    }

    @GetMapping("/db")
    public List<Item> db(@RequestParam(defaultValue = "10") @Min(1) @Max(ItemRepository.MAX_PAGE) int count) {
        return this.items.randomPage(count);
    }

}
