package io.sprout.sample.autobahn;

import jakarta.servlet.ServletContext;
import jakarta.websocket.server.ServerContainer;

import org.springframework.context.annotation.Profile;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /autobahn/limits}: the container's largest text and binary messages, as its new sessions get them. The
 * Autobahn summary reads it to tell a size case closed with 1009 over the limit (expected) from one closed under it.
 */
@RestController
@Profile("autobahn")
class ContainerLimitsController {

    private final ServerContainer container;

    ContainerLimitsController(ServletContext servletContext) {
        this.container = (ServerContainer) servletContext.getAttribute(ServerContainer.class.getName());
    }

    @GetMapping("/autobahn/limits")
    Limits limits() {
        return new Limits(this.container.getDefaultMaxTextMessageBufferSize(),
                this.container.getDefaultMaxBinaryMessageBufferSize());
    }

    record Limits(int text, int binary) {
    }

}
