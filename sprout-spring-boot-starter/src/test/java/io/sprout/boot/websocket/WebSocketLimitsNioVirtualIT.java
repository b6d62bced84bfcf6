package io.sprout.boot.websocket;

import org.springframework.test.context.TestPropertySource;

@TestPropertySource(properties = {"sprout.server.execution-mode=nio", "sprout.server.thread-type=virtual"})
class WebSocketLimitsNioVirtualIT extends WebSocketLimitsContract {
}
