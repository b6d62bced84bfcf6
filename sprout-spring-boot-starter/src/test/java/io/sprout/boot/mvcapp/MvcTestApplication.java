package io.sprout.boot.mvcapp;

import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/** A Spring MVC application exercising every endpoint kind the starter must serve. */
@SpringBootApplication
public class MvcTestApplication {

    public record Greeting(String message) {
    }

    public record Person(@NotBlank String name, @Min(0) int age) {
    }

    @Bean
    FilterRegistrationBean<Filter> markingFilter() {
        FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>((request, response, chain) -> {
            ((HttpServletResponse) response).setHeader("X-Sprout-Filter", "passed");
            chain.doFilter(request, response);
        });
        registration.addUrlPatterns("/api/*");
        return registration;
    }

    @RestController
    static class ApiController {

        @GetMapping("/api/greeting")
        Greeting greeting(@RequestParam(defaultValue = "world") String name) {
            return new Greeting("Hello, " + name + "!");
        }

        @PostMapping("/api/people")
        ResponseEntity<Person> create(@Valid @RequestBody Person person) {
            return ResponseEntity.status(HttpStatus.CREATED).body(person);
        }

        @GetMapping("/api/boom")
        String boom() {
            throw new IllegalStateException("boom");
        }

        @PostMapping("/form")
        String form(@RequestParam String name, @RequestParam String city) {
            return name + " from " + city;
        }

        @PostMapping("/upload")
        String upload(@RequestPart("file") MultipartFile file) throws IOException {
            return file.getOriginalFilename() + ":" + file.getBytes().length;
        }

        @GetMapping("/api/deferred")
        DeferredResult<Greeting> deferred() {
            DeferredResult<Greeting> result = new DeferredResult<>();
            Thread.ofVirtual().start(() -> result.setResult(new Greeting("deferred")));
            return result;
        }

        @GetMapping("/api/callable")
        Callable<String> callable() {
            return () -> "called";
        }

        @GetMapping("/api/sse")
        SseEmitter sse() {
            SseEmitter emitter = new SseEmitter();
            Thread.ofVirtual().start(() -> {
                try {
                    for (int i = 1; i <= 3; i++) {
                        emitter.send(SseEmitter.event().name("tick").data("n" + i));
                    }
                    emitter.complete();
                } catch (IOException e) {
                    emitter.completeWithError(e);
                }
            });
            return emitter;
        }

        @GetMapping("/api/stream")
        StreamingResponseBody stream() {
            return out -> {
                for (int i = 0; i < 3; i++) {
                    out.write(("chunk" + i + "\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            };
        }

        @GetMapping("/session/increment")
        String increment(HttpSession session) {
            Integer count = (Integer) session.getAttribute("count");
            int next = count == null ? 1 : count + 1;
            session.setAttribute("count", next);
            return String.valueOf(next);
        }
    }
}
