package io.sprout.boot.mvc;

import org.springframework.test.context.TestPropertySource;

@TestPropertySource(properties = {"sprout.server.execution-mode=hybrid", "sprout.server.thread-type=platform"})
class MvcApplicationHybridPlatformIT extends MvcApplicationContract {

    @Override
    String expectedEngine() {
        return "HYBRID/PLATFORM";
    }
}
