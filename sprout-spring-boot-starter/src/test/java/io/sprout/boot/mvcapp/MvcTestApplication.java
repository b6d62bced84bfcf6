package io.sprout.boot.mvcapp;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
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
import org.springframework.stereotype.Controller;
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
import java.util.EnumSet;
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

    /**
     * Denies {@code /secure/*} as Spring Security does for an anonymous client: {@code sendError(401)} with a
     * challenge, and again on the ERROR dispatch to {@code /error} that the first one causes (Security filters every
     * dispatcher type, and {@code /error} is not permitted), so no error page ever renders.
     */
    @Bean
    FilterRegistrationBean<Filter> denyingFilter() {
        FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>((request, response, chain) -> {
            HttpServletRequest http = (HttpServletRequest) request;
            String uri = http.getDispatcherType() == DispatcherType.ERROR
                    ? (String) http.getAttribute(RequestDispatcher.ERROR_REQUEST_URI) : http.getRequestURI();
            if (uri != null && uri.startsWith("/secure/")) {
                HttpServletResponse denied = (HttpServletResponse) response;
                denied.setHeader("WWW-Authenticate", "Basic realm=\"Realm\"");
                denied.sendError(HttpServletResponse.SC_UNAUTHORIZED, "Unauthorized");
                return;
            }
            chain.doFilter(request, response);
        });
        registration.setDispatcherTypes(EnumSet.of(DispatcherType.REQUEST, DispatcherType.ERROR));
        registration.addUrlPatterns("/secure/*", "/error");
        return registration;
    }

    @Controller
    static class RedirectController {

        @GetMapping("/owners/new")
        String createOwner() {
            return "redirect:/owners/11";
        }
    }

    @RestController
    static class ApiController {

        @GetMapping("/secure/area")
        String secureArea() {
            return "never served";
        }

        @GetMapping("/api/origin")
        String origin(HttpServletRequest request) {
            return request.getScheme() + "|" + request.getServerName() + "|" + request.getServerPort() + "|"
                    + request.getRequestURL();
        }

        @GetMapping("/api/relative-redirect")
        void relativeRedirect(HttpServletResponse response) throws IOException {
            response.sendRedirect("next");
        }

        @GetMapping("/api/unauthorized")
        void unauthorized(HttpServletResponse response) throws IOException {
            response.sendError(HttpServletResponse.SC_UNAUTHORIZED);
        }

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
