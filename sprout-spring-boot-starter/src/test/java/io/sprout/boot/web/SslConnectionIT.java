package io.sprout.boot.web;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.ssl.DefaultSslBundleRegistry;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.jks.JksSslStoreBundle;
import org.springframework.boot.ssl.jks.JksSslStoreDetails;
import org.springframework.boot.web.server.Ssl;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import static io.sprout.boot.web.SslKeyMaterialIT.keyStore;
import static io.sprout.boot.web.SslKeyMaterialIT.pemBundle;
import static io.sprout.boot.web.TestTls.PASSWORD;
import static io.sprout.boot.web.TestTls.classpath;
import static io.sprout.boot.web.WebServerUnderTest.factory;
import static io.sprout.boot.web.WebServerUnderTest.servlet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * What a TLS connection negotiates and what the application sees of it, in every engine combination: client
 * authentication ({@code need}, {@code want}) with and without a client certificate, restricted protocols and
 * cipher suites, the Servlet request's TLS attributes, SNI with {@code server.ssl.server-name-bundles}, and a
 * reloaded bundle reaching new connections while open ones keep their certificate.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
class SslConnectionIT {

    @Parameter
    Engines engines;

    private WebServerUnderTest server;

    @AfterEach
    void destroy() {
        if (server != null) {
            server.close();
        }
    }

    private void start(Ssl ssl) {
        SproutServletWebServerFactory factory = factory(engines);
        factory.setSsl(ssl);
        server = WebServerUnderTest.start(factory, servlet("/hello", TestTls.report()));
    }

    /** {@code server.ssl.*} with the {@code localhost} key, the test CA as trust store, and client auth. */
    private static Ssl clientAuth(Ssl.ClientAuth mode) {
        Ssl ssl = keyStore(classpath("localhost.p12"), "PKCS12");
        ssl.setTrustStore(classpath("truststore.p12"));
        ssl.setTrustStoreType("PKCS12");
        ssl.setTrustStorePassword(PASSWORD);
        ssl.setClientAuth(mode);
        return ssl;
    }

    private HttpResponse<String> get(SSLContext context, String path) throws IOException, InterruptedException {
        HttpClient client = TestTls.httpClient(context);
        try {
            return client.send(HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + path))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } finally {
            client.shutdownNow();
        }
    }

    @Test
    void needClientAuthServesAClientWithATrustedCertificate() throws Exception {
        start(clientAuth(Ssl.ClientAuth.NEED));
        HttpResponse<String> response = get(TestTls.clientWithCertificate(), "/hello");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("client=Sprout Test Client (2)");
    }

    @Test
    void needClientAuthFailsTheHandshakeOfAClientWithoutACertificate() {
        start(clientAuth(Ssl.ClientAuth.NEED));
        assertThatIOException().isThrownBy(() -> get(TestTls.client(), "/hello"));
    }

    @Test
    void wantClientAuthSeesTheCertificateOfAClientThatHasOne() throws Exception {
        start(clientAuth(Ssl.ClientAuth.WANT));
        assertThat(get(TestTls.clientWithCertificate(), "/hello").body()).contains("client=Sprout Test Client (2)");
    }

    @Test
    void wantClientAuthServesAClientWithoutACertificate() throws Exception {
        start(clientAuth(Ssl.ClientAuth.WANT));
        HttpResponse<String> response = get(TestTls.client(), "/hello");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("client=none");
    }

    @Test
    void theRequestDescribesItsTlsConnection() throws Exception {
        start(keyStore(classpath("localhost.p12"), "PKCS12"));
        String body = get(TestTls.client(), "/hello").body();
        assertThat(body).contains("scheme=https\n", "secure=true\n", "url=https://localhost:" + server.port()
                + "/hello\n", "protocol=TLSv1.3\n", "client=none\n");
        assertThat(body).containsPattern("cipher=TLS_(AES|CHACHA20)_\\w+\n").containsPattern("keySize=(128|256)\n")
                .containsPattern("sessionId=[0-9a-f]+\n");
    }

    @Test
    void servesOnlyTheConfiguredProtocolsAndCipherSuites() throws Exception {
        Ssl ssl = keyStore(classpath("localhost.p12"), "PKCS12");
        ssl.setEnabledProtocols(new String[] {"TLSv1.2"});
        ssl.setCiphers(new String[] {"TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"});
        start(ssl);
        assertThat(get(TestTls.client(), "/hello").body()).contains("protocol=TLSv1.2\n",
                "cipher=TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384\n", "keySize=256\n");
        assertThatIOException().isThrownBy(() -> TestTls.connect(TestTls.client(), server.port(), "localhost",
                "TLSv1.3").close());
    }

    @Test
    void sniChoosesTheServerNameBundle() throws Exception {
        SproutServletWebServerFactory factory = factory(engines);
        Ssl ssl = Ssl.forBundle("web");
        ssl.setServerNameBundles(List.of(new Ssl.ServerNameSslBundle("other.test", "other")));
        factory.setSsl(ssl);
        DefaultSslBundleRegistry bundles = new DefaultSslBundleRegistry("web", pemBundle("localhost"));
        bundles.registerBundle("other", pemBundle("other"));
        factory.setSslBundles(bundles);
        server = WebServerUnderTest.start(factory, servlet("/hello", TestTls.report()));
        assertThat(servedName("other.test")).isEqualTo("other.test");
        assertThat(servedName("localhost")).isEqualTo("localhost");
        assertThat(servedName(null)).isEqualTo("localhost");
    }

    @Test
    void aReloadedBundleReachesNewConnectionsWhileOpenOnesKeepTheirCertificate() throws Exception {
        SproutServletWebServerFactory factory = factory(engines);
        factory.setSsl(Ssl.forBundle("web"));
        DefaultSslBundleRegistry bundles = new DefaultSslBundleRegistry("web", pemBundle("localhost"));
        factory.setSslBundles(bundles);
        server = WebServerUnderTest.start(factory, servlet("/hello", TestTls.report()));
        try (SSLSocket before = TestTls.connect(TestTls.client(), server.port(), "localhost")) {
            assertThat(TestTls.servedName(before)).isEqualTo("localhost");

            bundles.updateBundle("web", pemBundle("other"));

            assertThat(servedName("localhost")).isEqualTo("other.test");
            assertThat(TestTls.servedName(before)).isEqualTo("localhost");
            assertThat(TestTls.get(before, "/hello")).startsWith("HTTP/1.1 200").contains("scheme=https");
        }
    }

    @Test
    void aReloadWithoutTheKeyAliasKeepsTheLastGoodCertificate() throws Exception {
        SproutServletWebServerFactory factory = factory(engines);
        factory.setSsl(Ssl.forBundle("web"));
        DefaultSslBundleRegistry bundles = new DefaultSslBundleRegistry("web", pemBundle("localhost"));
        factory.setSslBundles(bundles);
        server = WebServerUnderTest.start(factory, servlet("/hello", TestTls.report()));

        bundles.updateBundle("web", SslBundle.of(new JksSslStoreBundle(
                new JksSslStoreDetails("PKCS12", null, classpath("other.p12"), PASSWORD), null),
                org.springframework.boot.ssl.SslBundleKey.of(PASSWORD, "no-such-alias")));

        assertThat(servedName("localhost")).isEqualTo("localhost");
    }

    private String servedName(String serverName) throws IOException {
        try (SSLSocket socket = TestTls.connect(TestTls.client(), server.port(), serverName)) {
            return TestTls.servedName(socket);
        }
    }
}
