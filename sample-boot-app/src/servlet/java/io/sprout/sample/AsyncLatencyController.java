package io.sprout.sample;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * {@code GET /benchmark/latency-async?ms=100} on Spring MVC: the same wait and the same answer as
 * {@code /latency}, but no thread waits. The handler returns a {@link DeferredResult} at once, the container
 * releases its worker (servlet async), and a timer task completes the result {@code ms} later, which dispatches
 * the answer back to the container. The parameter bounds are those of {@code /latency}.
 */
@RestController
@RequestMapping("/benchmark")
public class AsyncLatencyController {

    private final ScheduledExecutorService timer;

    AsyncLatencyController(@Qualifier(LatencyTimerConfiguration.TIMER) ScheduledExecutorService timer) {
        this.timer = timer;
    }

    @GetMapping("/latency-async")
    public DeferredResult<String> latencyAsync(
            @RequestParam(defaultValue = "100") @Min(0) @Max(BenchmarkWork.MAX_SLEEP_MILLIS) int ms) {
        DeferredResult<String> result = new DeferredResult<>();
        this.timer.schedule(() -> result.setResult("Slept " + ms + " ms"), ms, TimeUnit.MILLISECONDS);
        return result;
    }

}
