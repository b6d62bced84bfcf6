package io.sprout.boot.mvc;

import org.springframework.test.context.TestPropertySource;

@TestPropertySource(properties = {"sprout.server.execution-mode=nio", "sprout.server.thread-type=platform"})
class MvcApplicationNioPlatformIT extends MvcApplicationContract {

    @Override
    String expectedEngine() {
        return "NIO/PLATFORM";
    }
}
