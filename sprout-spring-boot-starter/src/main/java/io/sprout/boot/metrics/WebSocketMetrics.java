package io.sprout.boot.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.sprout.boot.websocket.OpenSessions;

/**
 * The Jakarta WebSocket container's sessions and messages as Micrometer meters.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><td>{@code sprout.websocket.sessions}</td><td>gauge: sessions open now</td></tr>
 *   <tr><td>{@code sprout.websocket.messages}, tag {@code direction=in|out}</td><td>counter: whole messages
 *       received and sent</td></tr>
 * </table>
 */
public final class WebSocketMetrics implements MeterBinder {

    private final OpenSessions sessions;
    private final Tags tags;

    public WebSocketMetrics(OpenSessions sessions, Iterable<Tag> tags) {
        this.sessions = sessions;
        this.tags = Tags.of(tags);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("sprout.websocket.sessions", sessions, OpenSessions::count).tags(tags)
                .description("WebSocket sessions open now").baseUnit("sessions").register(registry);
        FunctionCounter.builder("sprout.websocket.messages", sessions, OpenSessions::messagesIn).tags(tags)
                .tag("direction", "in").description("WebSocket messages received").baseUnit("messages")
                .register(registry);
        FunctionCounter.builder("sprout.websocket.messages", sessions, OpenSessions::messagesOut).tags(tags)
                .tag("direction", "out").description("WebSocket messages sent").baseUnit("messages")
                .register(registry);
    }
}
