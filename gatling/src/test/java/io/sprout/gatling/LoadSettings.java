package io.sprout.gatling;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import io.gatling.javaapi.http.HttpProtocolBuilder;

import static io.gatling.javaapi.http.HttpDsl.http;

/**
 * The parameters every simulation shares, read from system properties:
 * <ul>
 * <li>{@code baseUrl} (default {@code http://127.0.0.1:8080}; {@code https} for the TLS runs): must resolve to a
 * loopback address; anything else
 * is refused, so a benchmark can never load another machine.</li>
 * <li>{@code scale} (default {@code 1.0}): multiplies every phase duration (never below one second), so
 * {@code -Dscale=0.1} runs the same shape ten times shorter. Rates are unchanged.</li>
 * </ul>
 */
final class LoadSettings {

    static final String DEFAULT_BASE_URL = "http://127.0.0.1:8080";

    private final String baseUrl;

    private final double scale;

    private LoadSettings(String baseUrl, double scale) {
        this.baseUrl = requireLoopback(baseUrl);
        if (!(scale > 0 && scale <= 10)) {
            throw new IllegalArgumentException("scale must be in (0, 10], was " + scale);
        }
        this.scale = scale;
    }

    static LoadSettings fromSystemProperties() {
        return new LoadSettings(System.getProperty("baseUrl", DEFAULT_BASE_URL),
                Double.parseDouble(System.getProperty("scale", "1.0")));
    }

    String baseUrl() {
        return this.baseUrl;
    }

    double scale() {
        return this.scale;
    }

    /** A phase of {@code seconds} at scale 1, scaled, at least one second. */
    Duration seconds(double seconds) {
        return Duration.ofMillis(Math.max(1000, Math.round(seconds * this.scale * 1000)));
    }

    /** {@code count} at scale 1, scaled, at least {@code minimum}. */
    int scaledCount(int count, int minimum) {
        return Math.max(minimum, (int) Math.round(count * this.scale));
    }

    /** Integer system property with a default. */
    static int intProperty(String name, int defaultValue) {
        return Integer.parseInt(System.getProperty(name, Integer.toString(defaultValue)));
    }

    /** Comma-separated integers from a system property, e.g. {@code -Dlevels=500,1000,2000}. */
    static List<Integer> intListProperty(String name, String defaultValue) {
        return Arrays.stream(System.getProperty(name, defaultValue).split(","))
            .map(String::trim)
            .filter((value) -> !value.isEmpty())
            .map(Integer::valueOf)
            .toList();
    }

    /**
     * The seed's protocol: keep-alive connections shared by all virtual users, at most {@code maxConnections} of
     * them, Gatling's own warm-up request disabled.
     */
    HttpProtocolBuilder sharedConnections(int maxConnections) {
        return perUserConnections().shareConnections().maxConnectionsPerHost(maxConnections);
    }

    /** One keep-alive connection per virtual user, as a closed-model client (ab, wrk) would open. */
    HttpProtocolBuilder perUserConnections() {
        return http.baseUrl(this.baseUrl)
            .disableWarmUp()
            .acceptHeader("*/*")
            .userAgentHeader("sprout-benchmark/gatling");
    }

    /**
     * WebSocket sessions to {@code ws://} on the base URL's host and port, each on its own connection, with
     * {@code bufferedMessages} unmatched inbound messages kept per session for {@code processUnmatchedMessages}.
     * With {@code -DlocalAddresses=127.0.0.1,127.0.0.2} the connections are spread over those source addresses,
     * each with its own ephemeral ports (for more sessions than one address has ports); they must be loopback.
     */
    HttpProtocolBuilder webSockets(int bufferedMessages) {
        HttpProtocolBuilder protocol = perUserConnections().wsBaseUrl("ws" + this.baseUrl.substring("http".length()))
            .wsUnmatchedInboundMessageBufferSize(bufferedMessages);
        List<String> localAddresses = Arrays.stream(System.getProperty("localAddresses", "").split(","))
            .map(String::trim)
            .filter((address) -> !address.isEmpty())
            .map(LoadSettings::requireLoopbackAddress)
            .toList();
        return localAddresses.isEmpty() ? protocol : protocol.localAddresses(localAddresses);
    }

    private static String requireLoopbackAddress(String address) {
        try {
            if (!InetAddress.getByName(address).isLoopbackAddress()) {
                throw new IllegalArgumentException("localAddresses must be loopback addresses, was " + address);
            }
        }
        catch (UnknownHostException ex) {
            throw new IllegalArgumentException("local address does not resolve: " + address, ex);
        }
        return address;
    }

    private static String requireLoopback(String baseUrl) {
        URI uri = URI.create(baseUrl);
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw new IllegalArgumentException("baseUrl must be http(s)://<loopback host>:<port>, was " + baseUrl);
        }
        try {
            for (InetAddress address : InetAddress.getAllByName(uri.getHost())) {
                if (!address.isLoopbackAddress()) {
                    throw new IllegalArgumentException("baseUrl must point at a loopback address, was " + baseUrl);
                }
            }
        }
        catch (UnknownHostException ex) {
            throw new IllegalArgumentException("baseUrl host does not resolve: " + baseUrl, ex);
        }
        return baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }

}
