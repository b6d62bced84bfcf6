package io.sprout.engine.contract;

import io.sprout.engine.RequestHandler;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.HttpResponse;
import io.sprout.engine.TlsDetails;

import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * The contract handler plus {@code /tls}, which answers what the request knows about its connection's security,
 * one {@code key=value} per line, and counts the requests it served.
 */
final class TlsHandler implements RequestHandler {

    private final RequestHandler contract = new ContractHandler();
    private final AtomicInteger served = new AtomicInteger();

    int served() {
        return served.get();
    }

    @Override
    public void handle(HttpRequest request, HttpResponse response) throws Exception {
        served.incrementAndGet();
        if (!request.path().equals("/tls")) {
            contract.handle(request, response);
            return;
        }
        TlsDetails tls = request.tls();
        StringBuilder text = new StringBuilder()
                .append("secure=").append(request.isSecure()).append('\n')
                .append("scheme=").append(request.scheme()).append('\n');
        if (tls != null) {
            text.append("protocol=").append(tls.protocol()).append('\n')
                    .append("cipher=").append(tls.cipherSuite()).append('\n')
                    .append("keySize=").append(tls.keySize()).append('\n')
                    .append("sessionId=").append(tls.sessionId()).append('\n')
                    .append("alpn=").append(tls.applicationProtocol()).append('\n')
                    .append("serverName=").append(tls.serverName()).append('\n')
                    .append("peer=").append(tls.peerCertificates().stream()
                            .map(X509Certificate::getSubjectX500Principal)
                            .map(Object::toString)
                            .collect(Collectors.joining("|"))).append('\n');
        }
        response.headers().set("Content-Type", "text/plain");
        response.body().write(text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The value of {@code key} in a {@code /tls} answer. */
    static String field(String answer, String key) {
        for (String line : answer.split("\n")) {
            if (line.startsWith(key + "=")) {
                return line.substring(key.length() + 1);
            }
        }
        throw new AssertionError("no " + key + " in " + answer);
    }
}
