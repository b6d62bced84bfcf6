package io.sprout.sample;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /benchmark/protocol} on Spring MVC: the protocol the request came over as the container reports it
 * ({@code HTTP/1.1}, {@code HTTP/2.0}), so a load test can check it measured the protocol it meant to (clients
 * fall back to HTTP/1.1 silently when ALPN offers no {@code h2}).
 */
@RestController
@RequestMapping("/benchmark")
public class ProtocolController {

    @GetMapping("/protocol")
    public String protocol(HttpServletRequest request) {
        return request.getProtocol();
    }
}
