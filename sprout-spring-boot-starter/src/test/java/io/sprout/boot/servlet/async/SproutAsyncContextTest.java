package io.sprout.boot.servlet.async;

import io.sprout.boot.servlet.async.SproutAsyncContext.Outcome;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class SproutAsyncContextTest {

    private final List<String> events = new ArrayList<>();

    private SproutAsyncContext context(long timeout) {
        SproutAsyncContext context = new SproutAsyncContext(null, null, true, "/orig?q=1", null, timeout,
                Runnable::run);
        context.addListener(new AsyncListener() {
            @Override
            public void onComplete(AsyncEvent event) {
                events.add("complete");
            }

            @Override
            public void onTimeout(AsyncEvent event) {
                events.add("timeout");
            }

            @Override
            public void onError(AsyncEvent event) {
                events.add("error " + event.getThrowable().getMessage());
            }

            @Override
            public void onStartAsync(AsyncEvent event) {
                events.add("start");
            }
        });
        return context;
    }

    @Test
    void staysStartedUntilTheContainerTakesTheDecision() {
        SproutAsyncContext context = context(0);
        context.dispatch();
        assertThat(context.started()).isTrue();
        assertThat(context.take()).isEqualTo(new Outcome.Dispatch("/orig?q=1"));
        assertThat(context.started()).isFalse();
        assertThat(context.take()).as("a decision is taken once").isNull();
    }

    @Test
    void tellsTheOwnerOfADecisionMadeBeforeOrAfterItRegisters() {
        List<SproutAsyncContext> told = new ArrayList<>();
        SproutAsyncContext early = context(0);
        early.complete();
        early.whenDecided(told::add);
        SproutAsyncContext late = context(0);
        late.whenDecided(told::add);
        assertThat(told).containsExactly(early);
        late.dispatch("/next");
        assertThat(told).containsExactly(early, late);
    }

    @Test
    void rejectsASecondDecisionButToleratesRepeatedComplete() {
        SproutAsyncContext context = context(0);
        context.complete();
        context.complete();
        assertThatIllegalStateException().isThrownBy(() -> context.dispatch("/x"));
    }

    @Test
    void timesOutWhenNobodyDecides() {
        SproutAsyncContext context = context(1);
        context.fireTimeout();
        assertThat(context.expireIfUndecided()).isTrue();
        assertThat(context.started()).isFalse();
        assertThatIllegalStateException().isThrownBy(context::dispatch);
        assertThat(events).containsExactly("timeout");
    }

    @Test
    void aListenerMayDecideOnTimeout() {
        SproutAsyncContext context = context(1);
        context.addListener(new AsyncListener() {
            @Override
            public void onComplete(AsyncEvent event) {
            }

            @Override
            public void onTimeout(AsyncEvent event) {
                event.getAsyncContext().dispatch("/timeout-page");
            }

            @Override
            public void onError(AsyncEvent event) {
            }

            @Override
            public void onStartAsync(AsyncEvent event) {
            }
        });
        context.fireTimeout();
        assertThat(context.expireIfUndecided()).isFalse();
        assertThat(context.take()).isEqualTo(new Outcome.Dispatch("/timeout-page"));
    }

    @Test
    void errorWithoutDecisionEndsTheCycle() {
        SproutAsyncContext context = context(0);
        context.fireError(new IllegalStateException("bad"));
        assertThat(context.decisionAfterError()).isFalse();
        assertThat(context.started()).isFalse();
        assertThat(events).containsExactly("error bad");
    }

    @Test
    void tellsListenersAboutANewCycle() {
        SproutAsyncContext first = context(0);
        first.fireStartAsync(new SproutAsyncContext(null, null, true, "/", null, 0, Runnable::run));
        first.fireComplete();
        assertThat(events).containsExactly("start", "complete");
    }
}
