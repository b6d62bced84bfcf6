package io.sprout.boot.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.sprout.boot.web.SproutWebServer;
import io.sprout.boot.websocket.SproutServerContainer;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.util.ClassUtils;

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
                bindWebSocket(sprout);
            }
        }
    }

    /** Only when the Jakarta WebSocket API is there: its classes are optional for the application. */
    private void bindWebSocket(SproutWebServer server) {
        if (ClassUtils.isPresent(SproutWebSocket.CONTAINER_CLASS, SproutMetricsBinder.class.getClassLoader())) {
            SproutWebSocket.bind(server, registry);
        }
    }

    /** Kept apart so that the WebSocket classes load only once the check above has passed. */
    private static final class SproutWebSocket {

        static final String CONTAINER_CLASS = "jakarta.websocket.server.ServerContainer";

        static void bind(SproutWebServer server, MeterRegistry registry) {
            // A reactive application has no servlet context, nor a Jakarta container.
            if (server.servletContext() != null && server.servletContext().getAttribute(
                    SproutServerContainer.ATTRIBUTE) instanceof SproutServerContainer container) {
                new WebSocketMetrics(container.openSessions(), Tags.empty()).bindTo(registry);
            }
        }
    }
}
