package io.sprout.boot.fluxapp;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.server.WebFilter;

/**
 * A Spring WebFlux application exercising every kind of endpoint a WebFlux application serves: annotated controllers
 * ({@link GreetingController}, {@link StreamingController}), functional routes ({@link FunctionalRoutes}), a
 * {@link WebFilter}, Boot's error handling and Actuator. It names no server: the test that runs it chooses one.
 */
@SpringBootApplication
public class FluxTestApplication {

    /** The header {@link #markingFilter()} adds to every response. */
    public static final String FILTER_HEADER = "X-Flux-Filter";

    public record Greeting(String message) {
    }

    public record Person(@NotBlank String name, @Min(0) int age) {
    }

    public record Item(int id, String name) {
    }

    /** Adds its header before the chain runs, so it is there on every answer, errors included. */
    @Bean
    WebFilter markingFilter() {
        return (exchange, chain) -> {
            exchange.getResponse().getHeaders().add(FILTER_HEADER, "passed");
            return chain.filter(exchange);
        };
    }
}
