package io.sprout.boot.web;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import javax.naming.ldap.LdapName;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;

/**
 * The client side of the starter's TLS tests, over the key material in {@code src/test/resources/tls} (see its
 * {@code generate.sh}; every password is {@code changeit}): JDK clients that trust the test CA, with or without the
 * test client certificate, and raw TLS sockets for what an HTTP client hides (the certificate served, SNI). Public
 * for the tests of other packages that run an engine with TLS of its own ({@link #server()}).
 */
public final class TestTls {

    static final String PASSWORD = "changeit";
    static final Path DIRECTORY = Path.of("src/test/resources/tls").toAbsolutePath();

    private TestTls() {
    }

    /** {@code classpath:tls/<name>}, as a Boot property value. */
    static String classpath(String name) {
        return "classpath:tls/" + name;
    }

    /** The file's absolute path, as a Boot property value for a file-system store. */
    static String file(String name) {
        return DIRECTORY.resolve(name).toString();
    }

    /** Trusts the test CA. */
    public static SSLContext client() {
        return context(null);
    }

    /** Serves the {@code localhost} certificate (signed by the test CA), for an engine's own TLS configuration. */
    public static SSLContext server() {
        return context(store("localhost.p12"));
    }

    /** Trusts the test CA and presents the "Sprout Test Client" certificate when asked. */
    static SSLContext clientWithCertificate() {
        return context(store("client.p12"));
    }

    static HttpClient httpClient(SSLContext context) {
        return HttpClient.newBuilder().sslContext(context).connectTimeout(Duration.ofSeconds(10)).build();
    }

    /**
     * A handshaken TLS socket to {@code port} on loopback, asking for {@code serverName} by SNI unless it is
     * {@code null}; the socket checks no host name, so tests can see whichever certificate the server chose.
     */
    static SSLSocket connect(SSLContext context, int port, String serverName, String... protocols)
            throws IOException {
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(20_000);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setServerNames(serverName == null ? List.of() : List.of(new SNIHostName(serverName)));
        if (protocols.length > 0) {
            parameters.setProtocols(protocols);
        }
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return socket;
    }

    /** The common name of the certificate the server presented on this socket. */
    static String servedName(SSLSocket socket) throws IOException {
        X509Certificate certificate = (X509Certificate) socket.getSession().getPeerCertificates()[0];
        return commonName(certificate);
    }

    static String commonName(X509Certificate certificate) {
        try {
            return new LdapName(certificate.getSubjectX500Principal().getName()).getRdns().stream()
                    .filter(rdn -> rdn.getType().equalsIgnoreCase("CN")).map(rdn -> rdn.getValue().toString())
                    .findFirst().orElseThrow();
        } catch (javax.naming.InvalidNameException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sends one {@code GET} with {@code Connection: close} and returns the whole response. */
    static String get(SSLSocket socket, String path) throws IOException {
        socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    /**
     * A servlet answering with what the request says about its connection, one {@code name=value} per line: scheme,
     * isSecure, the request URL and the Servlet TLS attributes ({@code client} is the client certificate's common
     * name, or {@code none}).
     */
    static HttpServlet report() {
        return new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                X509Certificate[] chain = (X509Certificate[]) request.getAttribute(
                        "jakarta.servlet.request.X509Certificate");
                response.setContentType("text/plain");
                response.getWriter().print("scheme=" + request.getScheme() + "\nsecure=" + request.isSecure()
                        + "\nurl=" + request.getRequestURL()
                        + "\nprotocol=" + request.getAttribute("jakarta.servlet.request.secure_protocol")
                        + "\ncipher=" + request.getAttribute("jakarta.servlet.request.cipher_suite")
                        + "\nkeySize=" + request.getAttribute("jakarta.servlet.request.key_size")
                        + "\nsessionId=" + request.getAttribute("jakarta.servlet.request.ssl_session_id")
                        + "\nclient=" + (chain == null ? "none" : commonName(chain[0]) + " (" + chain.length + ")")
                        + "\n");
            }
        };
    }

    /** Copies a file of the test key material, e.g. to rewrite it for a reload. */
    static void copy(String name, Path target) throws IOException {
        Files.copy(DIRECTORY.resolve(name), target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static SSLContext context(KeyStore clientKeys) {
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store("truststore.p12"));
            KeyManagerFactory keys = null;
            if (clientKeys != null) {
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(clientKeys, PASSWORD.toCharArray());
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyStore store(String name) {
        try (InputStream in = Files.newInputStream(DIRECTORY.resolve(name))) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD.toCharArray());
            return store;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
