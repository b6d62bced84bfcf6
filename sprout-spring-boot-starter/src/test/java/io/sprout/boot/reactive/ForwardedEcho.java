package io.sprout.boot.reactive;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WebFlux application whose {@code GET /echo} answers what the server made of the request's origin, and the raw
 * client that asks it: for the forwarded-header tests on Sprout and on Reactor Netty.
 */
final class ForwardedEcho {

    /** What the client sends as {@code Host}. */
    static final String HOST = "app.internal:8080";

    private ForwardedEcho() {
    }

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class Application {

        /** {@code uri|remote host|remote port|context path}. */
        @Bean
        RouterFunction<ServerResponse> echo() {
            return RouterFunctions.route(RequestPredicates.GET("/echo"), request -> {
                ServerHttpRequest http = request.exchange().getRequest();
                InetSocketAddress remote = http.getRemoteAddress();
                return ServerResponse.ok().bodyValue(http.getURI() + "|" + remote.getHostString() + "|"
                        + remote.getPort() + "|" + http.getPath().contextPath().value());
            });
        }
    }

    /**
     * The echo's four fields after a 200, the remote port written {@code socket} when it is the client socket's
     * own (it differs from one connection to the next).
     */
    static String[] get(int port, String target, String... headers) throws IOException {
        StringBuilder request = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: " + HOST
                + "\r\nConnection: close\r\n");
        for (String header : headers) {
            request.append(header).append("\r\n");
        }
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(request.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(response).startsWith("HTTP/1.1 200");
            String[] echo = response.substring(response.indexOf("\r\n\r\n") + 4).split("\\|", -1);
            if (echo[2].equals(Integer.toString(socket.getLocalPort()))) {
                echo[2] = "socket";
            }
            return echo;
        }
    }
}
