package io.sprout.boot.fluxapp;

import io.sprout.boot.fluxapp.FluxTestApplication.Greeting;
import io.sprout.boot.fluxapp.FluxTestApplication.Person;
import jakarta.validation.Valid;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.bind.annotation.CookieValue;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/** Single-value endpoints: text, JSON in and out, request parameters, a timer, cookies and failures. */
@RestController
class GreetingController {

    @GetMapping(value = "/api/text", produces = MediaType.TEXT_PLAIN_VALUE)
    String text() {
        return "Hello from WebFlux";
    }

    @GetMapping("/api/greeting")
    Mono<Greeting> greeting(@RequestParam(defaultValue = "World") String name) {
        return Mono.just(new Greeting("Hello, " + name + "!"));
    }

    @PostMapping("/api/people")
    @ResponseStatus(HttpStatus.CREATED)
    Mono<Person> createPerson(@Valid @RequestBody Mono<Person> person) {
        return person;
    }

    /** Echoes what Spring bound, decoded: a percent-encoded path segment and repeated query parameters. */
    @GetMapping("/api/users/{id}/posts/{slug}")
    Map<String, Object> post(@PathVariable int id, @PathVariable String slug,
            @RequestParam(defaultValue = "1") int page, @RequestParam(required = false) List<String> tag) {
        Map<String, Object> bound = new LinkedHashMap<>();
        bound.put("id", id);
        bound.put("slug", slug);
        bound.put("page", page);
        bound.put("tags", tag);
        return bound;
    }

    /** Answers from a timer thread, not the thread that received the request. */
    @GetMapping("/api/delayed")
    Mono<Greeting> delayed() {
        return Mono.delay(Duration.ofMillis(50)).map(tick -> new Greeting("Hello, later!"));
    }

    /** Two cookies without {@code Max-Age}: an {@code Expires} date would differ between two runs a second apart. */
    @GetMapping(value = "/api/cookies", produces = MediaType.TEXT_PLAIN_VALUE)
    String setCookies(ServerHttpResponse response) {
        response.addCookie(ResponseCookie.from("flavour", "oat").path("/").httpOnly(true).sameSite("Lax").build());
        response.addCookie(ResponseCookie.from("size", "large").path("/api").build());
        return "baked";
    }

    @GetMapping(value = "/api/cookies/read", produces = MediaType.TEXT_PLAIN_VALUE)
    String readCookies(@CookieValue String flavour, @CookieValue(defaultValue = "none") String size) {
        return flavour + "/" + size;
    }

    @GetMapping("/api/boom")
    Mono<Greeting> boom() {
        return Mono.error(new IllegalStateException("boom"));
    }

    @GetMapping("/api/items/{id}")
    Mono<Greeting> missingItem(@PathVariable int id) {
        return Mono.error(new NoSuchElementException("no item " + id));
    }

    /** This controller's own error handler: an RFC 9457 problem instead of Boot's error attributes. */
    @ExceptionHandler
    ProblemDetail notFound(NoSuchElementException missing) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, missing.getMessage());
    }
}
