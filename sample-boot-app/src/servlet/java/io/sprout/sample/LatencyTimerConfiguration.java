package io.sprout.sample;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The timer that completes {@code GET /benchmark/latency-async}: two platform threads, whatever the number of
 * requests waiting, since a waiting request is only a queued task.
 * <p>
 * The bean is not a default candidate: Boot backs off from its {@code applicationTaskExecutor} as soon as any
 * {@code Executor} bean exists, and this one must not change the rest of the application. It is injected by name
 * and stopped with the context ({@code shutdownNow}: by then graceful shutdown has let the requests in flight
 * finish, and a task still queued has no connection left to answer).
 */
@Configuration(proxyBeanMethods = false)
class LatencyTimerConfiguration {

    static final String TIMER = "latencyTimer";

    private static final int THREADS = 2;

    @Bean(name = TIMER, destroyMethod = "shutdownNow", defaultCandidate = false)
    ScheduledExecutorService latencyTimer() {
        return new ScheduledThreadPoolExecutor(THREADS,
                Thread.ofPlatform().name("latency-timer-", 0).daemon().factory());
    }

}
