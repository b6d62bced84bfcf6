package io.sprout.boot.web;

import io.sprout.boot.servlet.SproutServletContext;
import io.sprout.engine.RequestHandler;
import io.sprout.engine.PortBindException;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.ServerStats;
import io.sprout.engine.SproutServer;
import io.sprout.engine.server.Sprout;
import jakarta.servlet.ServletException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.GracefulShutdownCallback;
import org.springframework.boot.web.server.GracefulShutdownResult;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.WebServerException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Boot's {@link WebServer} over a Sprout engine. The servlet context is already initialised when this object
 * exists ({@link SproutServletWebServerFactory#getWebServer}); {@link #start()} runs load-on-startup, binds the
 * ports and logs the started line (ports, context path, execution mode, thread type and pool size). A port that
 * cannot be bound is Boot's {@link PortInUseException} naming that port. {@code start()} and {@code stop()} are
 * idempotent under one monitor; a stopped server can be started again (each start creates a fresh engine
 * instance).
 *
 * <p>All methods are called by Spring's lifecycle on the application's main or shutdown thread and may block
 * while the engine binds or stops.
 */
public final class SproutWebServer implements WebServer {

    private static final Logger LOG = LoggerFactory.getLogger(SproutWebServer.class);
    private static final Duration SESSION_SWEEP_INTERVAL = Duration.ofSeconds(30);

    private final Object monitor = new Object();
    private final ServerConfig config;
    private final RequestHandler handler;
    private final SproutServletContext context;
    private final boolean graceful;
    private final Path tempDirectory;
    private SproutServer server;
    private Housekeeper housekeeper;
    private boolean servletsLoaded;
    private boolean destroyed;

    /**
     * @param config the engine config, or {@code null} when the port is negative (the server never listens)
     * @param graceful whether {@code server.shutdown=graceful}
     */
    /**
     * Given a task, runs it once the connections the servlet layer handed to another protocol (WebSocket) have
     * closed: a graceful shutdown reports only then, so their closing handshakes finish before the server stops.
     */
    private Consumer<Runnable> upgradedClosed = Runnable::run;
    /** Ends the deployment phase of what the application deployed (WebSocket endpoints) as the server starts. */
    private Runnable deploymentEnds = () -> { };

    SproutWebServer(ServerConfig config, RequestHandler handler, SproutServletContext context, boolean graceful,
            Path tempDirectory) {
        this.config = config;
        this.handler = handler;
        this.context = context;
        this.graceful = graceful;
        this.tempDirectory = tempDirectory;
    }

    @Override
    public void start() throws WebServerException {
        synchronized (monitor) {
            if (server != null) {
                return;
            }
            if (destroyed) {
                throw new WebServerException("The Sprout web server has been destroyed and cannot start", null);
            }
            loadOnStartup();
            deploymentEnds.run();
            if (config == null) {
                return;
            }
            SproutServer candidate = Sprout.server(config, handler);
            try {
                candidate.start();
            } catch (PortBindException e) {
                PortInUseException.throwIfPortBindingException(e, e::port);
                throw new WebServerException("Unable to start embedded Sprout: could not listen on port " + e.port(),
                        e);
            } catch (RuntimeException e) {
                candidate.stop();
                throw new WebServerException("Unable to start embedded Sprout", e);
            }
            server = candidate;
            housekeeper = Housekeeper.start(context.sessions(), SESSION_SWEEP_INTERVAL, candidate.port());
            LOG.info(StartedLine.of(candidate.ports(), context.getContextPath(), config));
        }
    }

    private void loadOnStartup() {
        if (servletsLoaded) {
            return;
        }
        try {
            context.loadOnStartup();
            servletsLoaded = true;
        } catch (ServletException | RuntimeException e) {
            throw new WebServerException("Unable to start embedded Sprout: a servlet failed to load on startup", e);
        }
    }

    @Override
    public void stop() throws WebServerException {
        synchronized (monitor) {
            if (server == null) {
                return;
            }
            try {
                server.stop();
            } finally {
                server = null;
                housekeeper.stop();
                housekeeper = null;
            }
        }
    }

    @Override
    public void destroy() {
        synchronized (monitor) {
            stop();
            if (!destroyed) {
                destroyed = true;
                context.destroy();
                deleteRecursively(tempDirectory);
            }
        }
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

    @Override
    public int getPort() {
        synchronized (monitor) {
            return server == null ? -1 : server.port();
        }
    }

    /** Every port listened on, main first ({@link #getPort()} is the first); empty when not listening. */
    public List<Integer> getPorts() {
        synchronized (monitor) {
            return server == null ? List.of() : server.ports();
        }
    }

    @Override
    public void shutDownGracefully(GracefulShutdownCallback callback) {
        SproutServer running;
        synchronized (monitor) {
            running = server;
        }
        if (!graceful || running == null) {
            callback.shutdownComplete(GracefulShutdownResult.IMMEDIATE);
            return;
        }
        GracefulShutdown.shutDown(running, upgradedClosed, callback);
    }

    /** See {@link #upgradedClosed}; set by the factory before the server starts. */
    void upgradedClosedBy(Consumer<Runnable> wait) {
        upgradedClosed = wait;
    }

    /** See {@link #deploymentEnds}; set by the factory before the server starts. */
    void deploymentEndsWith(Runnable end) {
        deploymentEnds = end;
    }

    /** The running engine's live counters, or {@code null} when not started. */
    public ServerStats stats() {
        synchronized (monitor) {
            return server == null ? null : server.stats();
        }
    }

    /** The engine configuration this server binds with, or {@code null} when it never listens. */
    public ServerConfig config() {
        return config;
    }

    /** The servlet context this server hosts. */
    public SproutServletContext servletContext() {
        return context;
    }

    /** Whether the non-daemon keep-alive thread is running (it is exactly while the server is started). */
    boolean keepAliveThreadRunning() {
        synchronized (monitor) {
            return housekeeper != null && housekeeper.alive();
        }
    }
}
