package io.sprout.boot.web;

import io.sprout.boot.servlet.SproutServletContext;
import io.sprout.boot.stats.WebSocketStats;
import io.sprout.engine.PortBindException;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.ServerStats;
import io.sprout.engine.SproutServer;
import io.sprout.engine.server.Sprout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.GracefulShutdownCallback;
import org.springframework.boot.web.server.GracefulShutdownResult;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.WebServerException;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;

/**
 * Boot's {@link WebServer} over a Sprout engine, serving a {@link ServedApplication}: a servlet context, initialised
 * when this object exists ({@link SproutServletWebServerFactory#getWebServer}), or a reactive handler
 * ({@link SproutReactiveWebServerFactory}). {@link #start()} readies the application (a servlet context runs
 * load-on-startup), binds the ports and logs the started line (ports, context path, execution mode, thread type and
 * pool size). A port that cannot be bound is Boot's {@link PortInUseException} naming that port. {@code start()} and
 * {@code stop()} are idempotent under one monitor; a stopped server can be started again (each start creates a fresh
 * engine instance).
 *
 * <p>All methods are called by Spring's lifecycle on the application's main or shutdown thread and may block
 * while the engine binds or stops.
 */
public final class SproutWebServer implements WebServer {

    private static final Logger LOG = LoggerFactory.getLogger(SproutWebServer.class);
    private static final Duration HOUSEKEEPING_INTERVAL = Duration.ofSeconds(30);

    private final Object monitor = new Object();
    private final ServerConfig config;
    private final ServedApplication application;
    private final boolean graceful;
    private final WarmUp warmUp;
    private final WebSocketStats webSocketStats;
    /** Written under the monitor; read without it, so a request during the warm-up may ask for the port. */
    private volatile SproutServer server;
    private Housekeeper housekeeper;
    private String startedLogMessage;
    private boolean destroyed;

    /**
     * @param config the engine config, or {@code null} when the port is negative (the server never listens)
     * @param graceful whether {@code server.shutdown=graceful}
     * @param warmUp the requests to serve before the ports open, or {@code null} for none
     * @param webSocketStats where the application's WebSocket sessions are counted (the factory's)
     */
    SproutWebServer(ServerConfig config, ServedApplication application, boolean graceful, WarmUp warmUp,
            WebSocketStats webSocketStats) {
        this.config = config;
        this.application = application;
        this.graceful = graceful;
        this.warmUp = warmUp;
        this.webSocketStats = webSocketStats;
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
            application.beforeListening();
            if (config == null) {
                return;
            }
            if (warmUp != null) {
                warmUp();
            }
            SproutServer candidate = Sprout.server(config, application.handler());
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
            housekeeper = Housekeeper.start(application::housekeeping, HOUSEKEEPING_INTERVAL, candidate.port());
            startedLogMessage = StartedLine.bootShaped(candidate.ports(), application.contextPath(), config);
            LOG.info(StartedLine.of(startedLogMessage, config));
        }
    }

    /**
     * Serves the warm-up's requests through a private engine of the same configuration on an ephemeral loopback port,
     * plain HTTP, and stops it: the JIT compiles the engine's and the application's hot paths before any client can
     * connect, and the server's meters count none of it. Whatever happens is logged; start-up goes on.
     */
    private void warmUp() {
        ServerConfig loopback = config.toBuilder().address(InetAddress.getLoopbackAddress()).port(0)
                .additionalPorts(List.of()).tls(null).build();
        SproutServer engine = Sprout.server(loopback, application.handler());
        try {
            engine.start();
            WarmUp.Result result = new WarmUpDriver(warmUp).run(engine.port());
            if (result.failed() > 0 || result.timedOut()) {
                LOG.warn("Sprout warm-up of {}: {}", warmUp.paths(), result);
            } else {
                LOG.info("Sprout warm-up of {}: {}", warmUp.paths(), result);
            }
        } catch (RuntimeException e) {
            LOG.warn("Sprout warm-up failed; starting without it", e);
        } finally {
            engine.stop();
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
                application.destroy();
            }
        }
    }

    @Override
    public int getPort() {
        SproutServer running = server;
        return running == null ? -1 : running.port();
    }

    /** Every port listened on, main first ({@link #getPort()} is the first); empty when not listening. */
    public List<Integer> getPorts() {
        SproutServer running = server;
        return running == null ? List.of() : running.ports();
    }

    @Override
    public void shutDownGracefully(GracefulShutdownCallback callback) {
        SproutServer running = server;
        if (!graceful || running == null) {
            callback.shutdownComplete(GracefulShutdownResult.IMMEDIATE);
            return;
        }
        GracefulShutdown.shutDown(running, application::whenUpgradedClosed, callback);
    }

    /**
     * The started line of the last start in the shape of Boot's other servers (Reactor Netty's
     * {@code getStartedLogMessage}), without the engine part that the logged line adds; {@code null} before a start.
     */
    public String getStartedLogMessage() {
        synchronized (monitor) {
            return startedLogMessage;
        }
    }

    /** The running engine's live counters, or {@code null} when not started. */
    public ServerStats stats() {
        SproutServer running = server;
        return running == null ? null : running.stats();
    }

    /** The WebSocket sessions and messages of its application, on either stack; any time. */
    public WebSocketStats webSocketStats() {
        return webSocketStats;
    }

    /** The engine configuration this server binds with, or {@code null} when it never listens. */
    public ServerConfig config() {
        return config;
    }

    /** The servlet context this server hosts; {@code null} for a reactive application. */
    public SproutServletContext servletContext() {
        return application instanceof ServletApplication servlet ? servlet.context() : null;
    }

    /** Whether the non-daemon keep-alive thread is running (it is exactly while the server is started). */
    boolean keepAliveThreadRunning() {
        synchronized (monitor) {
            return housekeeper != null && housekeeper.alive();
        }
    }
}
