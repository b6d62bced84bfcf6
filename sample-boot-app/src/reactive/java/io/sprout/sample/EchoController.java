package io.sprout.sample;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /benchmark/echo} on WebFlux: writes the request body's buffers to the response as they arrive.
 * The return type is reactive, so it runs on the event loop and never on the blocking executor.
 */
@RestController
@RequestMapping("/benchmark")
public class EchoController {

    @PostMapping("/echo")
    public Mono<Void> echo(ServerHttpRequest request, ServerHttpResponse response) {
        HttpHeaders requestHeaders = request.getHeaders();
        MediaType contentType = requestHeaders.getContentType();
        response.getHeaders().setContentType((contentType != null) ? contentType : MediaType.APPLICATION_OCTET_STREAM);
        long length = requestHeaders.getContentLength();
        if (length >= 0) {
            response.getHeaders().setContentLength(length);
        }
        return response.writeWith(request.getBody());
    }

}
