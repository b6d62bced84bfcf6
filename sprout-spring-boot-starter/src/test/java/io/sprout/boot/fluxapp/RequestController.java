package io.sprout.boot.fluxapp;

import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.http.codec.multipart.FormFieldPart;
import org.springframework.http.codec.multipart.Part;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** What the application sees of a request: its URI, parameters, headers and cookies, and bodies of each kind. */
@RestController
class RequestController {

    /**
     * The request as Spring sees it. Header names are looked up in another case than the client's, and the client's
     * repeated fields must come back as a list, as Netty gives them.
     */
    @GetMapping("/req/info")
    Map<String, Object> info(ServerHttpRequest request) {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("method", request.getMethod().name());
        info.put("uri", request.getURI().toString());
        info.put("path", request.getPath().value());
        info.put("contextPath", request.getPath().contextPath().value());
        info.put("rawQuery", request.getURI().getRawQuery());
        info.put("query", new TreeMap<>(request.getQueryParams()));
        info.put("cookies", new TreeMap<>(request.getCookies()).keySet());
        info.put("many", request.getHeaders().get("x-MANY"));
        info.put("host", request.getHeaders().getFirst("host"));
        info.put("contentLength", request.getHeaders().getContentLength());
        info.put("remote", request.getRemoteAddress().getAddress().getHostAddress());
        info.put("localPortIsTheHostsPort", request.getLocalAddress().getPort() == request.getURI().getPort());
        info.put("secure", request.getSslInfo() != null);
        return info;
    }

    @PostMapping(value = "/req/form", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Map<String, List<String>>> form(ServerWebExchange exchange) {
        return exchange.getFormData().map(TreeMap::new);
    }

    /** Each part as {@code name=filename:bytes} or {@code name=value}. */
    @PostMapping(value = "/req/multipart", produces = MediaType.TEXT_PLAIN_VALUE)
    Mono<String> multipart(ServerWebExchange exchange) {
        return exchange.getMultipartData().flatMapMany(parts -> Flux.fromIterable(parts.values()))
                .flatMap(Flux::fromIterable).concatMap(RequestController::describe)
                .collectList().map(descriptions -> String.join("\n", descriptions));
    }

    private static Mono<String> describe(Part part) {
        return switch (part) {
            case FilePart file -> file.content().map(buffer -> {
                int size = buffer.readableByteCount();
                DataBufferUtils.release(buffer);
                return size;
            }).reduce(0, Integer::sum).map(size -> file.name() + "=" + file.filename() + ":" + size);
            case FormFieldPart field -> Mono.just(field.name() + "=" + field.value());
            default -> Mono.just(part.name() + "?");
        };
    }

    /** The body decoded with the charset the request declares, and sent back in UTF-8. */
    @PostMapping(value = "/req/text", produces = MediaType.TEXT_PLAIN_VALUE + ";charset=UTF-8")
    String text(@RequestBody String body) {
        return body.toUpperCase(Locale.ROOT);
    }
}
