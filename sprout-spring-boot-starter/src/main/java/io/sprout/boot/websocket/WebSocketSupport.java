package io.sprout.boot.websocket;

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

    public static SproutServerContainer install(ServletContext context, WebSocketConfig config) {
        SproutServerContainer container = new SproutServerContainer(config);
        context.setAttribute(SproutServerContainer.ATTRIBUTE, container);
        FilterRegistration.Dynamic filter = context.addFilter(WebSocketUpgradeFilter.NAME,
                new WebSocketUpgradeFilter(container));
        filter.setAsyncSupported(true);
        filter.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        return container;
    }
}
