package io.sprout.boot.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.sprout.boot.web.SproutWebServer;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;

/**
 * Binds {@link SproutMetrics} once the application has started, when the web server exists (the same moment
 * Boot's {@code TomcatMetricsBinder} picks). Runs on the main thread; does nothing for other servers.
 */
public final class SproutMetricsBinder implements ApplicationListener<ApplicationStartedEvent> {

    private final MeterRegistry registry;

    public SproutMetricsBinder(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void onApplicationEvent(ApplicationStartedEvent event) {
        ApplicationContext context = event.getApplicationContext();
        if (context instanceof WebServerApplicationContext webContext) {
            WebServer server = webContext.getWebServer();
            if (server instanceof SproutWebServer sprout) {
                long maxConnections = sprout.config() == null ? -1 : sprout.config().maxConnections();
                new SproutMetrics(sprout::stats, maxConnections, Tags.empty()).bindTo(registry);
                // Bound whichever stack the application runs, and whether or not it serves WebSockets: the meters
                // read the same counters either way, and an Actuator user finds them under the same names.
                new WebSocketMetrics(sprout.webSocketStats(), Tags.empty()).bindTo(registry);
            }
        }
    }
}
