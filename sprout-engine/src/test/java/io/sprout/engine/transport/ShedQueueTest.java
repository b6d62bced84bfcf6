package io.sprout.engine.transport;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The shedding order, as plain calls: idle connections first, oldest first, then the oldest waiting heads. */
class ShedQueueTest {

    private final ShedQueue queue = new ShedQueue();
    private final List<String> shed = new ArrayList<>();

    private ShedQueue.Sheddable named(String name) {
        return ticket -> shed.add(name + (ticket.idle() ? " (idle)" : " (head)"));
    }

    @Test
    void shedsIdleConnectionsOldestFirstThenHeadsOldestFirst() {
        queue.awaitingHead(named("head-1"));
        queue.idle(named("idle-1"));
        queue.awaitingHead(named("head-2"));
        queue.idle(named("idle-2"));

        for (int i = 0; i < 4; i++) {
            assertThat(queue.shedOne()).isTrue();
        }

        assertThat(shed).containsExactly("idle-1 (idle)", "idle-2 (idle)", "head-1 (head)", "head-2 (head)");
        assertThat(queue.shedOne()).as("nothing left to shed").isFalse();
    }

    @Test
    void skipsConnectionsWhoseWaitHasEnded() {
        ShedTicket served = queue.idle(named("served"));
        queue.idle(named("waiting"));
        ShedTicket answered = queue.awaitingHead(named("answered"));
        queue.done(served);
        queue.done(answered);
        queue.done(null);

        assertThat(queue.shedOne()).isTrue();
        assertThat(queue.shedOne()).isFalse();
        assertThat(shed).containsExactly("waiting (idle)");
    }

    @Test
    void aShedConnectionGivingItsTicketBackChangesNothing() {
        ShedTicket ticket = queue.awaitingHead(named("slow"));
        assertThat(queue.shedOne()).isTrue();

        queue.done(ticket);

        assertThat(queue.shedOne()).isFalse();
        assertThat(shed).containsExactly("slow (head)");
    }

    @Test
    void purgesGivenBackTicketsWithoutLosingWaitingOnes() {
        queue.idle(named("oldest"));
        for (int i = 0; i < 10_000; i++) {
            queue.done(queue.idle(named("served-" + i)));
        }
        queue.idle(named("newest"));

        assertThat(queue.shedOne()).isTrue();
        assertThat(queue.shedOne()).isTrue();
        assertThat(queue.shedOne()).isFalse();
        assertThat(shed).containsExactly("oldest (idle)", "newest (idle)");
    }
}
