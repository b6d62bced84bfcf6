package io.sprout.sample;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import reactor.core.publisher.Mono;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /benchmark/latency-async?ms=100} on WebFlux: the same wait and the same answer as {@code /latency},
 * but no thread waits. The return type is reactive, so the handler runs on the event loop (not on the blocking
 * executor) and Reactor's timer emits the answer {@code ms} later. The parameter bounds are those of
 * {@code /latency}.
 */
@RestController
@RequestMapping("/benchmark")
public class AsyncLatencyController {

    @GetMapping("/latency-async")
    public Mono<String> latencyAsync(
            @RequestParam(defaultValue = "100") @Min(0) @Max(BenchmarkWork.MAX_SLEEP_MILLIS) int ms) {
        return Mono.delay(Duration.ofMillis(ms)).thenReturn("Slept " + ms + " ms");
    }

}
