package io.sprout.sample;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The HTTP side of the WebSocket benchmarks, shared by both stacks: how many sessions are open (the runner waits on
 * it and divides the server's memory growth by it) and the trigger of a broadcast to every {@code /ws/broadcast}
 * session. Parameters are bounded like the other benchmark endpoints: a violation is a 400.
 */
@RestController
@RequestMapping("/benchmark")
public class WebSocketBenchmarkController {

    /** At most this many messages per session and broadcast, so one request cannot queue without bound. */
    static final int MAX_MESSAGES = 1_000;

    /** Largest message: Tomcat's default text buffer (8 KiB) would close a session with 1009 beyond it. */
    static final int MAX_SIZE = 8_192;

    private final WebSocketSessions sessions;

    WebSocketBenchmarkController(WebSocketSessions sessions) {
        this.sessions = sessions;
    }

    @GetMapping("/ws/sessions")
    public SessionCount sessions() {
        return new SessionCount(this.sessions.open(), this.sessions.subscribers());
    }

    @PostMapping("/broadcast")
    public BroadcastResult broadcast(@RequestParam(defaultValue = "1") @Min(1) @Max(MAX_MESSAGES) int messages,
            @RequestParam(defaultValue = "64") @Min(BroadcastMessage.MIN_SIZE) @Max(MAX_SIZE) int size) {
        return this.sessions.broadcast(messages, size);
    }

    /**
     * The answer of {@code GET /benchmark/ws/sessions}.
     *
     * @param open sessions open on {@code /ws/echo} and {@code /ws/broadcast}
     * @param subscribers of those, the sessions on {@code /ws/broadcast}
     */
    public record SessionCount(int open, int subscribers) {
    }

}
