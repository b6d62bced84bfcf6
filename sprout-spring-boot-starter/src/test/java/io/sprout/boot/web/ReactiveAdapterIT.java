package io.sprout.boot.web;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ServletHttpHandlerAdapter;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring's {@link ServletHttpHandlerAdapter}, which is how WebFlux runs on Tomcat and Jetty, on Sprout: it reads
 * with a {@code ReadListener} and writes with a {@code WriteListener}, so this is the Servlet non-blocking I/O
 * contract as a real framework uses it, in every execution mode and thread type.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
class ReactiveAdapterIT {

    @Parameter
    Engines engines;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private ServletUnderTest server;

    @AfterEach
    void destroy() {
        if (server != null) {
            server.close();
        }
    }

    /** {@code /echo} returns the request body; {@code /ticks} streams five lines from a timer thread. */
    private static final HttpHandler HANDLER = (request, response) -> switch (request.getPath().value()) {
        case "/echo" -> response.writeWith(request.getBody());
        case "/ticks" -> {
            response.getHeaders().setContentType(MediaType.TEXT_PLAIN);
            Flux<Mono<DataBuffer>> lines = Flux.interval(Duration.ofMillis(20)).take(5)
                .map(i -> Mono.just(response.bufferFactory()
                    .wrap(("tick " + (i + 1) + "\n").getBytes(StandardCharsets.US_ASCII))));
            yield response.writeAndFlushWith(lines);
        }
        default -> {
            response.setStatusCode(HttpStatus.NOT_FOUND);
            yield response.setComplete();
        }
    };

    @Test
    void echoesATwoMegabyteBody() throws Exception {
        server = ServletUnderTest.start(engines, "/", new ServletHttpHandlerAdapter(HANDLER));
        byte[] body = new byte[2 * 1024 * 1024 + 3];
        new Random(5).nextBytes(body);
        HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(server.uri("/echo"))
                .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(body);
    }

    @Test
    void streamsAFluxFlushedLineByLine() throws Exception {
        server = ServletUnderTest.start(engines, "/", new ServletHttpHandlerAdapter(HANDLER));
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(server.uri("/ticks"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain");
        assertThat(response.body()).isEqualTo("tick 1\ntick 2\ntick 3\ntick 4\ntick 5\n");
    }

    @Test
    void answersAnUnknownPathWith404() throws Exception {
        server = ServletUnderTest.start(engines, "/", new ServletHttpHandlerAdapter(HANDLER));
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(server.uri("/nowhere"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(404);
    }
}
