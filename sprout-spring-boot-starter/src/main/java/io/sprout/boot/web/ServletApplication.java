package io.sprout.boot.web;

import io.sprout.boot.servlet.ServletRequestHandler;
import io.sprout.boot.servlet.SproutServletContext;
import io.sprout.engine.RequestHandler;
import jakarta.servlet.ServletException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.WebServerException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A servlet application: the servlet context, already initialised by the factory. Its servlets load on the first
 * start (load-on-startup), what it deployed (WebSocket endpoints) stops deploying as the server listens, expired
 * sessions are swept while it runs, and the context and its temporary directory go when the server is destroyed.
 */
final class ServletApplication implements ServedApplication {

    private static final Logger LOG = LoggerFactory.getLogger(ServletApplication.class);

    private final SproutServletContext context;
    private final RequestHandler handler;
    private final Path tempDirectory;
    private final Consumer<Runnable> upgradedClosed;
    private final Runnable deploymentEnds;
    private boolean servletsLoaded;

    /**
     * @param upgradedClosed see {@link ServedApplication#whenUpgradedClosed}
     * @param deploymentEnds ends the deployment phase of what the application deployed
     */
    ServletApplication(SproutServletContext context, Path tempDirectory, Consumer<Runnable> upgradedClosed,
            Runnable deploymentEnds) {
        this.context = context;
        this.handler = new ServletRequestHandler(context);
        this.tempDirectory = tempDirectory;
        this.upgradedClosed = upgradedClosed;
        this.deploymentEnds = deploymentEnds;
    }

    SproutServletContext context() {
        return context;
    }

    @Override
    public RequestHandler handler() {
        return handler;
    }

    @Override
    public void beforeListening() {
        if (!servletsLoaded) {
            try {
                context.loadOnStartup();
                servletsLoaded = true;
            } catch (ServletException | RuntimeException e) {
                throw new WebServerException("Unable to start embedded Sprout: a servlet failed to load on startup",
                        e);
            }
        }
        deploymentEnds.run();
    }

    @Override
    public void housekeeping() {
        context.sessions().evictExpired();
    }

    @Override
    public String contextPath() {
        return context.getContextPath();
    }

    @Override
    public void whenUpgradedClosed(Runnable task) {
        upgradedClosed.accept(task);
    }

    @Override
    public void destroy() {
        context.destroy();
        deleteRecursively(tempDirectory);
    }

    static void deleteRecursively(Path directory) {
        if (directory == null || !Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            LOG.debug("Could not delete the temporary directory {}", directory, e);
        }
    }
}
