package io.sprout.boot.fluxapp;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.net.URI;

/** Answers whose head is the point: no content, not modified, a redirect, repeated fields, an unusual status. */
@RestController
class ResponseShapesController {

    @GetMapping("/res/none")
    ResponseEntity<Void> none() {
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/res/empty")
    Mono<FluxTestApplication.Greeting> empty() {
        return Mono.empty();
    }

    /** Spring answers {@code 304} itself when {@code If-None-Match} names this tag. */
    @GetMapping(value = "/res/tagged", produces = MediaType.TEXT_PLAIN_VALUE)
    ResponseEntity<String> tagged() {
        return ResponseEntity.ok().eTag("\"v1\"").body("tagged body");
    }

    @GetMapping("/res/redirect")
    ResponseEntity<Void> redirect() {
        return ResponseEntity.status(HttpStatus.FOUND).location(URI.create("/api/text")).build();
    }

    @GetMapping(value = "/res/fields", produces = MediaType.TEXT_PLAIN_VALUE)
    ResponseEntity<String> fields() {
        return ResponseEntity.ok().header("X-Multi", "a", "b").header("X-List", "c, d")
                .header("Cache-Control", "no-store").body("fields");
    }

    @GetMapping(value = "/res/teapot", produces = MediaType.TEXT_PLAIN_VALUE)
    ResponseEntity<String> teapot() {
        return ResponseEntity.status(HttpStatus.I_AM_A_TEAPOT).body("short and stout");
    }
}
