package io.sprout.sample.autobahn;

import org.springframework.context.annotation.Profile;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /autobahn/limits}: the server's {@link EchoLimits}, as its new sessions get them. */
@RestController
@Profile("autobahn")
class EchoLimitsController {

    private final EchoLimits limits;

    EchoLimitsController(EchoLimits limits) {
        this.limits = limits;
    }

    @GetMapping("/autobahn/limits")
    EchoLimits limits() {
        return this.limits;
    }

}
