package io.sprout.boot.fluxapp;

import io.sprout.boot.fluxapp.FluxTestApplication.Item;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

import java.net.URI;
import java.util.List;

import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/** The same kinds of endpoint as the controllers', written as WebFlux.fn routes. */
@Configuration(proxyBeanMethods = false)
class FunctionalRoutes {

    private static final List<Item> ITEMS = List.of(new Item(1, "spade"), new Item(2, "rake"));

    @Bean
    RouterFunction<ServerResponse> itemRoutes() {
        return route()
                .GET("/fn/hello", request -> ServerResponse.ok().contentType(MediaType.TEXT_PLAIN)
                        .bodyValue("Hello from a route"))
                .GET("/fn/items", request -> ServerResponse.ok().bodyValue(ITEMS))
                .GET("/fn/items/{id}", FunctionalRoutes::item)
                .POST("/fn/items", FunctionalRoutes::create)
                .build();
    }

    private static Mono<ServerResponse> item(ServerRequest request) {
        int id = Integer.parseInt(request.pathVariable("id"));
        return ITEMS.stream().filter(item -> item.id() == id).findFirst()
                .map(item -> ServerResponse.ok().bodyValue(item))
                .orElseGet(() -> ServerResponse.notFound().build());
    }

    private static Mono<ServerResponse> create(ServerRequest request) {
        return request.bodyToMono(Item.class).flatMap(item -> ServerResponse
                .created(URI.create("/fn/items/" + item.id())).bodyValue(item));
    }
}
