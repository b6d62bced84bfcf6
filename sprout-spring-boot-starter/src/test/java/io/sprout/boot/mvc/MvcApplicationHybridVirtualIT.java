package io.sprout.boot.mvc;

import org.springframework.test.context.TestPropertySource;

@TestPropertySource(properties = {"sprout.server.execution-mode=hybrid", "sprout.server.thread-type=virtual"})
class MvcApplicationHybridVirtualIT extends MvcApplicationContract {

    @Override
    String expectedEngine() {
        return "HYBRID/VIRTUAL";
    }
}
