package io.sprout.boot.web;

import io.sprout.boot.httpsapp.ClinicApplication;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Spring Boot applications on Sprout configured for HTTPS only through properties, in every engine combination: a
 * petclinic-style MVC application whose {@code clinic.properties} sets nothing but {@code server.ssl.*}, SSL bundles
 * with SNI and with {@code reload-on-update}, and a bad key alias ending in Boot's failure report.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
@ExtendWith(OutputCaptureExtension.class)
class HttpsApplicationIT {

    @Parameter
    Engines engines;

    private final HttpClient client = TestTls.httpClient(TestTls.client());
    private ConfigurableApplicationContext context;

    @AfterEach
    void close() {
        client.shutdownNow();
        if (context != null) {
            context.close();
        }
    }

    /**
     * Runs the clinic with the engine of this run and {@code config} as the name of its properties file;
     * {@code arguments} ({@code name=value}) come as command-line arguments, so they override that file.
     */
    private ConfigurableApplicationContext run(String config, String... arguments) {
        List<String> all = new ArrayList<>(List.of("spring.config.name=" + config, "server.port=0",
                "spring.main.banner-mode=off", "spring.main.register-shutdown-hook=false",
                "sprout.server.execution-mode=" + engines.mode().name().toLowerCase(Locale.ROOT),
                "sprout.server.thread-type=" + engines.threads().name().toLowerCase(Locale.ROOT),
                "sprout.server.thread-pool-size=16", "sprout.server.selector-threads=1"));
        return new SpringApplicationBuilder(ClinicApplication.class).web(WebApplicationType.SERVLET)
                .properties(all.toArray(String[]::new))
                .run(Arrays.stream(arguments).map(argument -> "--" + argument).toArray(String[]::new));
    }

    private int port() {
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("https://localhost:" + port() + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String servedName(String serverName) throws IOException {
        try (SSLSocket socket = TestTls.connect(TestTls.client(), port(), serverName)) {
            return TestTls.servedName(socket);
        }
    }

    @Test
    void aPetclinicStyleApplicationServesHttpsFromItsPropertiesAlone(CapturedOutput output) throws Exception {
        context = run("clinic");
        assertThat(output).contains("Sprout started on port " + port() + " (https) with context path '/'");

        HttpResponse<String> owners = get("/owners/2");
        assertThat(owners.statusCode()).isEqualTo(200);
        assertThat(owners.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(owners.body()).isEqualTo("{\"id\":2,\"name\":\"Betty Davis\",\"pets\":[\"Basil\",\"Rosy\"]}");

        HttpResponse<String> welcome = get("/");
        assertThat(welcome.statusCode()).isEqualTo(200);
        assertThat(welcome.body()).contains("<a href=\"https://localhost:" + port() + "/owners\">");
        assertThat(welcome.headers().firstValue("Set-Cookie")).hasValueSatisfying(
                cookie -> assertThat(cookie).startsWith("JSESSIONID=").contains("; Secure"));
    }

    @Test
    void plainHttpOnTheHttpsPortIsAnsweredAndClosed() throws Exception {
        context = run("clinic");
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port() + "/owners"))
                        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(400);
    }

    @Test
    void serverNameBundlesFromPropertiesChooseTheCertificateBySni() throws Exception {
        context = run("no-such-config", "server.ssl.bundle=web",
                "spring.ssl.bundle.pem.web.keystore.certificate=classpath:tls/localhost-cert.pem",
                "spring.ssl.bundle.pem.web.keystore.private-key=classpath:tls/localhost-key.pem",
                "spring.ssl.bundle.jks.other.keystore.location=classpath:tls/other.p12",
                "spring.ssl.bundle.jks.other.keystore.password=changeit",
                "spring.ssl.bundle.jks.other.keystore.type=PKCS12",
                "server.ssl.server-name-bundles[0].server-name=other.test",
                "server.ssl.server-name-bundles[0].bundle=other");
        assertThat(servedName("other.test")).isEqualTo("other.test");
        assertThat(servedName("localhost")).isEqualTo("localhost");
        assertThat(get("/owners/1").statusCode()).isEqualTo(200);
    }

    @Test
    void aRewrittenPemBundleReachesNewConnectionsWithoutARestart(@TempDir Path directory) throws Exception {
        TestTls.copy("localhost-cert.pem", directory.resolve("cert.pem"));
        TestTls.copy("localhost-key.pem", directory.resolve("key.pem"));
        context = run("no-such-config", "server.ssl.bundle=web",
                "spring.ssl.bundle.pem.web.keystore.certificate=file:" + directory.resolve("cert.pem"),
                "spring.ssl.bundle.pem.web.keystore.private-key=file:" + directory.resolve("key.pem"),
                "spring.ssl.bundle.pem.web.reload-on-update=true",
                "spring.ssl.bundle.watch.file.quiet-period=100ms");
        BlockingQueue<SslBundle> reloads = new LinkedBlockingQueue<>();
        // Registered after the server's own handler, so it runs once the server has taken the new bundle.
        context.getBean(SslBundles.class).addBundleUpdateHandler("web", reloads::add);
        try (SSLSocket open = TestTls.connect(TestTls.client(), port(), "localhost")) {
            assertThat(TestTls.servedName(open)).isEqualTo("localhost");

            TestTls.copy("other-key.pem", directory.resolve("key.pem"));
            TestTls.copy("other-cert.pem", directory.resolve("cert.pem"));

            assertThat(awaitServedName("other.test", reloads)).isEqualTo("other.test");
            assertThat(TestTls.get(open, "/owners/1")).startsWith("HTTP/1.1 200").contains("George Franklin");
        }
    }

    /**
     * Boot's file watcher reloads on its own thread after a quiet period, possibly once per rewritten file (a key
     * without its certificate is refused and the previous bundle kept), so each reload is awaited (30 s at most)
     * and a new connection asked what it is served, until it is the expected name or no reload comes.
     */
    private String awaitServedName(String expected, BlockingQueue<SslBundle> reloads)
            throws IOException, InterruptedException {
        String served = servedName("localhost");
        while (!served.equals(expected) && reloads.poll(30, TimeUnit.SECONDS) != null) {
            served = servedName("localhost");
        }
        return served;
    }

    @Test
    void anUnknownKeyAliasEndsInBootsFailureReportNamingIt(CapturedOutput output) {
        assertThatException().isThrownBy(() -> run("clinic", "server.ssl.key-alias=test-alias-404").close());
        assertThat(output).contains("APPLICATION FAILED TO START", "Description:",
                "The Sprout web server cannot start HTTPS: the key store of server.ssl.* does not contain the key "
                        + "alias 'test-alias-404'. It holds: [localhost].", "Action:",
                "Set server.ssl.key-alias to one of the aliases in the key store")
                .doesNotContain("Sprout started");
    }
}
