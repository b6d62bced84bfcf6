package io.sprout.boot.websocket;

import org.springframework.test.context.TestPropertySource;

@TestPropertySource(properties = {"sprout.server.execution-mode=nio", "sprout.server.thread-type=platform"})
class WebSocketApplicationNioPlatformIT extends WebSocketApplicationContract {

    @Override
    String expectedEngine() {
        return "NIO/PLATFORM";
    }
}
