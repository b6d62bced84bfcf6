package io.sprout.boot.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.sprout.boot.stats.WebSocketStats;

/**
 * A web server's WebSocket sessions and messages as Micrometer meters: the same meters whether the Jakarta
 * WebSocket container or WebFlux's sessions count into the {@link WebSocketStats}.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><td>{@code sprout.websocket.sessions}</td><td>gauge: sessions open now</td></tr>
 *   <tr><td>{@code sprout.websocket.messages}, tag {@code direction=in|out}</td><td>counter: whole messages
 *       received and sent</td></tr>
 * </table>
 */
public final class WebSocketMetrics implements MeterBinder {

    private final WebSocketStats sessions;
    private final Tags tags;

    public WebSocketMetrics(WebSocketStats sessions, Iterable<Tag> tags) {
        this.sessions = sessions;
        this.tags = Tags.of(tags);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("sprout.websocket.sessions", sessions, WebSocketStats::open).tags(tags)
                .description("WebSocket sessions open now").baseUnit("sessions").register(registry);
        FunctionCounter.builder("sprout.websocket.messages", sessions, WebSocketStats::messagesIn).tags(tags)
                .tag("direction", "in").description("WebSocket messages received").baseUnit("messages")
                .register(registry);
        FunctionCounter.builder("sprout.websocket.messages", sessions, WebSocketStats::messagesOut).tags(tags)
                .tag("direction", "out").description("WebSocket messages sent").baseUnit("messages")
                .register(registry);
    }
}
