package io.sprout.engine.contract;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Python's {@code ssl} module as a TLS client, run as a child process: a client built on OpenSSL rather than the
 * JDK. It verifies the server against the test CA, offers h2 and http/1.1 by ALPN, makes one request with
 * {@code Connection: close}, reads to the end (which Python reports as an error unless close_notify came first) and
 * prints {@code python.alpn=} and {@code python.version=} lines before the response body.
 */
final class PythonClient {

    private static final String SCRIPT = """
            import socket, ssl, sys
            port, path, ca, cert = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
            context = ssl.create_default_context(cafile=ca)
            context.set_alpn_protocols(["h2", "http/1.1"])
            if cert:
                context.load_cert_chain(cert)
            with socket.create_connection(("localhost", port), timeout=20) as raw:
                with context.wrap_socket(raw, server_hostname="localhost") as tls:
                    tls.sendall(("GET " + path + " HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n").encode())
                    response = b""
                    while True:
                        chunk = tls.recv(65536)
                        if not chunk:
                            break
                        response += chunk
                    print("python.alpn=" + str(tls.selected_alpn_protocol()))
                    print("python.version=" + tls.version())
                    sys.stdout.write(response.decode().split("\\r\\n\\r\\n", 1)[1])
            """;

    private PythonClient() {
    }

    /** Whether {@code python3} runs here with its {@code ssl} module. */
    static boolean available() {
        try {
            Process check = new ProcessBuilder("python3", "-c", "import ssl").redirectErrorStream(true).start();
            return check.waitFor(20, TimeUnit.SECONDS) && check.exitValue() == 0;
        } catch (IOException notInstalled) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Fetches {@code path} over TLS, presenting the test client certificate when asked; returns what it printed. */
    static String get(int port, String path, boolean withClientCertificate) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("python3", "-c", SCRIPT, String.valueOf(port), path,
                resource("ca.pem"), withClientCertificate ? resource("client.pem") : ""));
        Process python = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!python.waitFor(30, TimeUnit.SECONDS) || python.exitValue() != 0) {
            throw new AssertionError("python3 failed: " + output);
        }
        return output;
    }

    private static String resource(String name) {
        try {
            return Path.of(PythonClient.class.getResource("/tls/" + name).toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
