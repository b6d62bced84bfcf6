package io.sprout.boot.web;

import io.sprout.boot.servlet.UnsupportedFeatureException;
import io.sprout.boot.tls.MissingKeyAliasException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.ssl.DefaultSslBundleRegistry;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.jks.JksSslStoreBundle;
import org.springframework.boot.ssl.jks.JksSslStoreDetails;
import org.springframework.boot.ssl.pem.PemSslStoreBundle;
import org.springframework.boot.ssl.pem.PemSslStoreDetails;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.servlet.Session;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.URI;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;

import static io.sprout.boot.web.TestTls.PASSWORD;
import static io.sprout.boot.web.TestTls.classpath;
import static io.sprout.boot.web.TestTls.file;
import static io.sprout.boot.web.WebServerUnderTest.factory;
import static io.sprout.boot.web.WebServerUnderTest.servlet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Where the server's certificate comes from, the SSL topics of Boot's servlet server contract
 * ({@code AbstractServletWebServerFactoryTests}) in every engine combination: {@code server.ssl.*} key stores
 * (PKCS12 and JKS, class path and file system, PEM), SSL bundles by name, the key alias, the server header, the
 * started line, and what Sprout refuses (an unknown alias, SSL session tracking).
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
@ExtendWith(OutputCaptureExtension.class)
class SslKeyMaterialIT {

    @Parameter
    Engines engines;

    private WebServerUnderTest server;
    private final HttpClient client = TestTls.httpClient(TestTls.client());

    @AfterEach
    void destroy() {
        client.shutdownNow();
        if (server != null) {
            server.close();
        }
    }

    /** {@code server.ssl.key-store} and friends, as Boot's properties bind them. */
    static Ssl keyStore(String location, String type) {
        Ssl ssl = new Ssl();
        ssl.setKeyStore(location);
        ssl.setKeyStoreType(type);
        ssl.setKeyStorePassword(PASSWORD);
        return ssl;
    }

    static SslBundle pkcs12Bundle(String keyStore) {
        return SslBundle.of(new JksSslStoreBundle(
                new JksSslStoreDetails("PKCS12", null, classpath(keyStore), PASSWORD), null));
    }

    static SslBundle pemBundle(String name) {
        return SslBundle.of(new PemSslStoreBundle(PemSslStoreDetails.forCertificate(classpath(name + "-cert.pem"))
                .withPrivateKey(classpath(name + "-key.pem")), null));
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private void start(Ssl ssl) {
        SproutServletWebServerFactory factory = factory(engines);
        factory.setSsl(ssl);
        server = WebServerUnderTest.start(factory, servlet("/hello", TestTls.report()));
    }

    private void assertServesHttps() throws Exception {
        HttpResponse<String> response = get("/hello");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("scheme=https", "secure=true");
    }

    @Test
    void servesHttpsFromAPkcs12KeyStoreOnTheClassPath() throws Exception {
        start(keyStore(classpath("localhost.p12"), "PKCS12"));
        assertServesHttps();
    }

    @Test
    void servesHttpsFromAJksKeyStoreOnTheFileSystem() throws Exception {
        start(keyStore(file("localhost.jks"), "JKS"));
        assertServesHttps();
    }

    @Test
    void servesHttpsFromAPemCertificateAndKey() throws Exception {
        Ssl ssl = new Ssl();
        ssl.setCertificate(classpath("localhost-cert.pem"));
        ssl.setCertificatePrivateKey(classpath("localhost-key.pem"));
        start(ssl);
        assertServesHttps();
    }

    @Test
    void servesHttpsFromAPkcs12BundleByName() throws Exception {
        SproutServletWebServerFactory factory = factory(engines);
        factory.setSsl(Ssl.forBundle("web"));
        factory.setSslBundles(new DefaultSslBundleRegistry("web", pkcs12Bundle("localhost.p12")));
        server = WebServerUnderTest.start(factory, servlet("/hello", TestTls.report()));
        assertServesHttps();
    }

    @Test
    void servesHttpsFromAPemBundleByName() throws Exception {
        SproutServletWebServerFactory factory = factory(engines);
        factory.setSsl(Ssl.forBundle("web"));
        factory.setSslBundles(new DefaultSslBundleRegistry("web", pemBundle("localhost")));
        server = WebServerUnderTest.start(factory, servlet("/hello", TestTls.report()));
        assertServesHttps();
    }

    @Test
    void theKeyAliasChoosesTheCertificate() throws Exception {
        for (String alias : List.of("other", "localhost")) {
            Ssl ssl = keyStore(classpath("two-keys.p12"), "PKCS12");
            ssl.setKeyAlias(alias);
            start(ssl);
            try (SSLSocket socket = TestTls.connect(TestTls.client(), server.port(), null)) {
                assertThat(TestTls.servedName(socket)).isEqualTo(alias.equals("other") ? "other.test" : "localhost");
            }
            server.close();
            server = null;
        }
    }

    @Test
    void anUnknownKeyAliasFailsNamingItAndTheAliasesThereAre() {
        Ssl ssl = keyStore(classpath("two-keys.p12"), "PKCS12");
        ssl.setKeyAlias("test-alias-404");
        SproutServletWebServerFactory factory = factory(engines);
        factory.setSsl(ssl);
        assertThatExceptionOfType(MissingKeyAliasException.class)
                .isThrownBy(() -> factory.getWebServer().start())
                .satisfies(e -> {
                    assertThat(e.alias()).isEqualTo("test-alias-404");
                    assertThat(e.aliases()).containsExactly("localhost", "other");
                    assertThat(e.source()).isEqualTo("server.ssl.*");
                })
                .withStackTraceContaining("Keystore does not contain alias 'test-alias-404'");
    }

    @Test
    void aCipherSuiteTheJdkDoesNotKnowFailsNamingTheProperty() {
        Ssl ssl = keyStore(classpath("localhost.p12"), "PKCS12");
        ssl.setCiphers(new String[] {"TLS_NO_SUCH_CIPHER"});
        SproutServletWebServerFactory factory = factory(engines);
        factory.setSsl(ssl);
        assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
                .isThrownBy(factory::getWebServer)
                .satisfies(e -> assertThat(e.getName()).isEqualTo("server.ssl.ciphers"))
                .withMessageContaining("TLS_NO_SUCH_CIPHER");
    }

    @Test
    void disabledSslServesPlainHttp() throws Exception {
        Ssl ssl = keyStore(classpath("localhost.p12"), "PKCS12");
        ssl.setEnabled(false);
        start(ssl);
        assertThatExceptionOfType(SSLException.class).isThrownBy(() -> get("/hello"));
        assertThat(server.get("/hello").body()).contains("scheme=http\n", "secure=false", "protocol=null");
    }

    @Test
    void theEngineGetsTheHandshakeTimeoutAndTheClientAuthentication() {
        Ssl ssl = keyStore(classpath("localhost.p12"), "PKCS12");
        ssl.setClientAuth(Ssl.ClientAuth.WANT);
        SproutServletWebServerFactory factory = factory(engines);
        factory.setSsl(ssl);
        factory.setTlsHandshakeTimeout(Duration.ofSeconds(3));
        server = WebServerUnderTest.start(factory, servlet("/hello", TestTls.report()));
        assertThat(server.webServer().config().tls().handshakeTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(server.webServer().config().tls().clientAuth()).isEqualTo(io.sprout.engine.ClientAuth.WANT);
    }

    @Test
    void sendsNoServerHeaderByDefault() throws Exception {
        start(keyStore(classpath("localhost.p12"), "PKCS12"));
        assertThat(get("/hello").headers().firstValue("Server")).isEmpty();
    }

    @Test
    void sendsTheConfiguredServerHeader() throws Exception {
        SproutServletWebServerFactory factory = factory(engines);
        factory.setServerHeader("MyServer");
        factory.setSsl(keyStore(classpath("localhost.p12"), "PKCS12"));
        server = WebServerUnderTest.start(factory, servlet("/hello", TestTls.report()));
        assertThat(get("/hello").headers().allValues("Server")).containsExactly("MyServer");
    }

    @Test
    void everyPortSpeaksHttpsAndTheStartedLineSaysSo(CapturedOutput output) throws Exception {
        SproutServletWebServerFactory factory = factory(engines);
        factory.setSsl(keyStore(classpath("localhost.p12"), "PKCS12"));
        factory.addAdditionalPorts(0);
        server = WebServerUnderTest.start(factory, servlet("/hello", TestTls.report()));
        List<Integer> ports = server.webServer().getPorts();
        assertThat(output).contains("Sprout started on ports " + ports.get(0) + " (https), " + ports.get(1)
                + " (https) with context path '/'");
        try (SSLSocket socket = TestTls.connect(TestTls.client(), ports.get(1), "localhost")) {
            assertThat(TestTls.get(socket, "/hello")).startsWith("HTTP/1.1 200").contains("scheme=https");
        }
    }

    @Test
    void sslSessionTrackingIsRefusedWithTheAlternatives() {
        SproutServletWebServerFactory factory = factory(engines);
        factory.setSsl(keyStore(classpath("localhost.p12"), "PKCS12"));
        factory.getSettings().getSession().setTrackingModes(EnumSet.of(Session.SessionTrackingMode.SSL));
        assertThatException().isThrownBy(factory::getWebServer)
                .havingRootCause().isInstanceOf(UnsupportedFeatureException.class)
                .withMessageContaining("session tracking mode SSL")
                .withMessageContaining("TLS 1.3 gives every connection a new one");
    }
}
