package io.sprout.boot.websocket;

import io.sprout.boot.stats.WebSocketStats;
import io.sprout.engine.WebSocketConfig;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContext;

import java.util.EnumSet;

/**
 * Installs Jakarta WebSocket in a servlet context before the application's initializers run: the
 * {@link SproutServerContainer} in its attribute and the {@link WebSocketUpgradeFilter} ahead of every filter the
 * application registers. Called by the web server factory on the thread that builds the context.
 */
public final class WebSocketSupport {

    private WebSocketSupport() {
    }

    /** @param stats where the container counts its sessions and messages for the meters */
    public static SproutServerContainer install(ServletContext context, WebSocketConfig config,
            WebSocketStats stats) {
        SproutServerContainer container = new SproutServerContainer(config, stats);
        context.setAttribute(SproutServerContainer.ATTRIBUTE, container);
        FilterRegistration.Dynamic filter = context.addFilter(WebSocketUpgradeFilter.NAME,
                new WebSocketUpgradeFilter(container));
        filter.setAsyncSupported(true);
        filter.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        return container;
    }
}
