package io.sprout.sample;

import java.util.Locale;

import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * The short name of the web server that runs the application (for example {@code tomcat}),
 * reported in {@code /benchmark/json} so a benchmark run can check that it measures the server it thinks it does.
 */
@Component
public class ServerName implements ApplicationListener<WebServerInitializedEvent> {

    private volatile String name = "unknown";

    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        this.name = shortName(event.getWebServer().getClass().getSimpleName());
    }

    /** {@code TomcatWebServer} and {@code JettyServletWebServer} give {@code tomcat} and {@code jetty}. */
    static String shortName(String webServerClassName) {
        return webServerClassName.replace("WebServer", "")
            .replace("Servlet", "")
            .replace("Reactive", "")
            .toLowerCase(Locale.ROOT);
    }

    /** The name, or {@code unknown} before the server has started. */
    public String get() {
        return this.name;
    }

}
