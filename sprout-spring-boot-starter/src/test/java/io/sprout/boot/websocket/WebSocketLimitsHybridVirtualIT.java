package io.sprout.boot.websocket;

import org.springframework.test.context.TestPropertySource;

@TestPropertySource(properties = {"sprout.server.execution-mode=hybrid", "sprout.server.thread-type=virtual"})
class WebSocketLimitsHybridVirtualIT extends WebSocketLimitsContract {
}
