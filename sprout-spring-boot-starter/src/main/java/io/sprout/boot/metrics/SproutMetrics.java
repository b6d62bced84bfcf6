package io.sprout.boot.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.sprout.engine.ServerStats;
import io.sprout.engine.TimeoutKind;

import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The engine's {@link ServerStats} as Micrometer meters, named like Tomcat's and Jetty's ({@code sprout.*},
 * dot.lowercase, base units). Each meter reads the live value when scraped; while the server is stopped the
 * supplier gives {@code null} and gauges read NaN.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><td>{@code sprout.connections.current}, {@code .idle}, {@code .config.max}</td><td>gauges</td></tr>
 *   <tr><td>{@code sprout.connections.accepted}, {@code .rejected}, {@code .shed}</td><td>counters</td></tr>
 *   <tr><td>{@code sprout.timeouts}, tagged {@code kind}: {@code head}, {@code body}, {@code rate}, {@code write},
 *       {@code idle}</td><td>counters</td></tr>
 *   <tr><td>{@code sprout.requests.active}</td><td>gauge</td></tr>
 *   <tr><td>{@code sprout.requests.received}, {@code .shed}</td><td>counters</td></tr>
 *   <tr><td>{@code sprout.bytes.in}, {@code sprout.bytes.out}</td><td>counters, bytes</td></tr>
 *   <tr><td>{@code sprout.buffers.leased}</td><td>gauge</td></tr>
 *   <tr><td>{@code sprout.buffers.leases}, {@code .hits}, {@code .misses}</td><td>counters</td></tr>
 *   <tr><td>{@code sprout.threads.busy}, {@code .current}, {@code .config.max}</td><td>gauges</td></tr>
 *   <tr><td>{@code sprout.http2.streams}</td><td>gauge, open HTTP/2 streams</td></tr>
 *   <tr><td>{@code sprout.http2.resets}, tagged {@code direction}: {@code received}, {@code sent}</td>
 *       <td>counters, RST_STREAM frames</td></tr>
 *   <tr><td>{@code sprout.http2.goaway}, tagged {@code reason}: an RFC 9113 error code name</td>
 *       <td>counters, connections the server ended with GOAWAY</td></tr>
 * </table>
 *
 * <p>The HTTP/2 meters exist, at 0, whether or not HTTP/2 is enabled, so dashboards need no second case.
 */
public final class SproutMetrics implements MeterBinder {

    /**
     * Every error code of RFC 9113 §7, a closed registry: a counter per code from the start, so that a rate of
     * {@code ENHANCE_YOUR_CALM} reads 0, not absent, until the first flood. The engine's stats name a code only once
     * it has been sent.
     */
    static final List<String> GOAWAY_REASONS = List.of("NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR",
            "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT", "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL",
            "COMPRESSION_ERROR", "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED");

    private final Supplier<ServerStats> stats;
    private final long maxConnections;
    private final Tags tags;

    public SproutMetrics(Supplier<ServerStats> stats, long maxConnections, Iterable<Tag> tags) {
        this.stats = stats;
        this.maxConnections = maxConnections;
        this.tags = Tags.of(tags);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        gauge(registry, "sprout.connections.current", "Connections currently open",
                BaseUnits.CONNECTIONS, ServerStats::connectionsOpen);
        gauge(registry, "sprout.connections.idle", "Open connections waiting for their next request",
                BaseUnits.CONNECTIONS, ServerStats::connectionsIdle);
        Gauge.builder("sprout.connections.config.max", () -> maxConnections).tags(tags)
                .description("Open connections the server keeps; beyond, it sheds idle and slow ones or answers 503")
                .baseUnit(BaseUnits.CONNECTIONS).register(registry);
        counter(registry, "sprout.connections.accepted", "Connections accepted", BaseUnits.CONNECTIONS,
                ServerStats::connectionsAccepted);
        counter(registry, "sprout.connections.rejected", "Connections refused because the server was overloaded",
                BaseUnits.CONNECTIONS, ServerStats::connectionsRejected);
        counter(registry, "sprout.connections.shed",
                "Connections closed to admit new ones at the limit: idle ones, then the slowest request heads",
                BaseUnits.CONNECTIONS, ServerStats::connectionsShed);
        for (TimeoutKind kind : TimeoutKind.values()) {
            FunctionCounter.builder("sprout.timeouts", stats, supplier -> read(supplier, s -> s.timeouts(kind)))
                    .tags(tags).tag("kind", kind.name().toLowerCase(Locale.ROOT))
                    .description("Connections or requests ended because a client ran out of time, by limit")
                    .baseUnit("timeouts").register(registry);
        }
        counter(registry, "sprout.tasks.rescued",
                "Tasks of suspended exchanges the saturated workers refused, run by the rescue threads instead",
                "tasks", ServerStats::tasksRescued);
        counter(registry, "sprout.exchanges.refused",
                "Suspended exchanges aborted because neither the workers nor the rescue threads could take a task",
                "exchanges", ServerStats::exchangesRefused);
        gauge(registry, "sprout.requests.active", "Requests being handled", "requests", ServerStats::requestsActive);
        gauge(registry, "sprout.exchanges.detached", "Suspended or upgraded exchanges, holding no thread",
                "exchanges", ServerStats::exchangesDetached);
        counter(registry, "sprout.requests.received", "Requests whose head was parsed", "requests",
                ServerStats::requestsTotal);
        counter(registry, "sprout.requests.shed",
                "Requests answered 408 early to free a platform worker: their body arrived below the minimum rate",
                "requests", ServerStats::requestsShed);
        counter(registry, "sprout.bytes.in", "Bytes read from clients", BaseUnits.BYTES, ServerStats::bytesIn);
        counter(registry, "sprout.bytes.out", "Bytes written to clients", BaseUnits.BYTES, ServerStats::bytesOut);
        gauge(registry, "sprout.buffers.leased", "Pooled buffers currently leased", "buffers",
                ServerStats::buffersLeased);
        counter(registry, "sprout.buffers.leases", "Buffers handed out by the pool", "buffers",
                ServerStats::bufferLeases);
        counter(registry, "sprout.buffers.hits", "Leases served from a pooled buffer", "buffers",
                ServerStats::bufferHits);
        counter(registry, "sprout.buffers.misses", "Leases that allocated a new buffer", "buffers",
                ServerStats::bufferMisses);
        gauge(registry, "sprout.threads.busy", "Workers running a task", BaseUnits.THREADS, ServerStats::workersBusy);
        gauge(registry, "sprout.threads.current", "Worker threads that exist", BaseUnits.THREADS,
                ServerStats::workersCurrent);
        gauge(registry, "sprout.threads.config.max", "Platform pool size, -1 for virtual threads", BaseUnits.THREADS,
                ServerStats::workersMax);
        bindHttp2(registry);
    }

    private void bindHttp2(MeterRegistry registry) {
        gauge(registry, "sprout.http2.streams", "HTTP/2 streams open", "streams", ServerStats::http2StreamsActive);
        http2Resets(registry, "received", ServerStats::http2ResetsReceived);
        http2Resets(registry, "sent", ServerStats::http2ResetsSent);
        for (String reason : GOAWAY_REASONS) {
            FunctionCounter.builder("sprout.http2.goaway", stats,
                            supplier -> read(supplier, s -> s.http2GoAways().getOrDefault(reason, 0L)))
                    .tags(tags).tag("reason", reason)
                    .description("HTTP/2 connections the server ended with GOAWAY, by error code")
                    .baseUnit(BaseUnits.CONNECTIONS).register(registry);
        }
    }

    private void http2Resets(MeterRegistry registry, String direction, ToLongFunction<ServerStats> value) {
        FunctionCounter.builder("sprout.http2.resets", stats, supplier -> read(supplier, value)).tags(tags)
                .tag("direction", direction)
                .description("HTTP/2 streams reset (RST_STREAM), by the client (received) or the server (sent)")
                .baseUnit("streams").register(registry);
    }

    private void gauge(MeterRegistry registry, String name, String description, String unit,
            ToLongFunction<ServerStats> value) {
        Gauge.builder(name, stats, supplier -> read(supplier, value)).tags(tags).description(description)
                .baseUnit(unit).register(registry);
    }

    private void counter(MeterRegistry registry, String name, String description, String unit,
            ToLongFunction<ServerStats> value) {
        FunctionCounter.builder(name, stats, supplier -> read(supplier, value)).tags(tags).description(description)
                .baseUnit(unit).register(registry);
    }

    private static double read(Supplier<ServerStats> supplier, ToLongFunction<ServerStats> value) {
        ServerStats current = supplier.get();
        return current == null ? Double.NaN : value.applyAsLong(current);
    }
}
