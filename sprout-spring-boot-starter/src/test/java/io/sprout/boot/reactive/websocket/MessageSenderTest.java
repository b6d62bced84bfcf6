package io.sprout.boot.reactive.websocket;

import org.junit.jupiter.api.Test;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.core.io.buffer.PooledDataBuffer;
import org.springframework.web.reactive.socket.WebSocketMessage;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.publisher.TestPublisher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class MessageSenderTest {

    private static final long WINDOW = 64 * 1024;

    private final DefaultDataBufferFactory buffers = new DefaultDataBufferFactory();

    /** What the engine was handed, and the send futures it returned, which the test completes. */
    private final List<String> handed = new ArrayList<>();
    private final List<CompletableFuture<Void>> pending = new ArrayList<>();

    private CompletableFuture<Void> heldSend(WebSocketMessage message) {
        handed.add(message.getPayloadAsText());
        CompletableFuture<Void> sent = new CompletableFuture<>();
        pending.add(sent);
        return sent;
    }

    private Mono<Void> send(Flux<WebSocketMessage> messages, Function<WebSocketMessage, CompletableFuture<Void>> engine) {
        return Mono.create(done -> messages.subscribe(new MessageSender(engine, WINDOW, done)));
    }

    private WebSocketMessage text(String text) {
        return new WebSocketMessage(WebSocketMessage.Type.TEXT,
                buffers.wrap(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** A message whose buffer counts references, so that its release shows. */
    private static WebSocketMessage counted(int size) {
        return new WebSocketMessage(WebSocketMessage.Type.BINARY, new NettyDataBufferFactory(
                UnpooledByteBufAllocator.DEFAULT).allocateBuffer(size).write(new byte[size]));
    }

    private static boolean released(WebSocketMessage message) {
        return !((PooledDataBuffer) message.getPayload()).isAllocated();
    }

    private Flux<WebSocketMessage> texts(int count, int size) {
        return Flux.range(0, count).map(i -> text(String.valueOf(i % 10).repeat(size)));
    }

    @Test
    void handsTheEngineAtMostTheWindowOfSmallMessagesAndOneMoreForEachWritten() {
        Disposable sending = send(texts(100, 10), this::heldSend).subscribe();

        assertThat(handed).hasSize(MessageSender.MAX_IN_FLIGHT);
        pending.get(0).complete(null);
        assertThat(handed).hasSize(MessageSender.MAX_IN_FLIGHT + 1);
        sending.dispose();
    }

    @Test
    void aMessageThatDoesNotFitTheBytesInFlightWaitsForTheEarlierOnes() {
        Disposable sending = send(texts(3, 40 * 1024), this::heldSend).subscribe();

        assertThat(handed).hasSize(1);
        pending.get(0).complete(null);
        assertThat(handed).hasSize(2);
        sending.dispose();
    }

    @Test
    void aMessageLargerThanTheWindowGoesAloneWhenNothingElseIsInFlight() {
        Disposable sending = send(Flux.just(text("a"), text("b".repeat(1 << 20)), text("c")), this::heldSend)
                .subscribe();

        assertThat(handed).containsExactly("a");
        pending.get(0).complete(null);
        assertThat(handed).hasSize(2);
        assertThat(handed.get(1)).hasSize(1 << 20);
        pending.get(1).complete(null);
        assertThat(handed).hasSize(3).last().isEqualTo("c");
        sending.dispose();
    }

    @Test
    void completesOnceEverythingIsWrittenInOrderWithoutRecursingOnSendsThatCompleteAtOnce() {
        List<String> written = new ArrayList<>();

        StepVerifier.create(send(Flux.range(0, 200_000).map(i -> text(Integer.toString(i))), message -> {
            written.add(message.getPayloadAsText());
            return CompletableFuture.completedFuture(null);
        })).verifyComplete();

        assertThat(written).containsExactlyElementsOf(IntStream.range(0, 200_000).mapToObj(Integer::toString)
                .toList());
    }

    @Test
    void doesNotCompleteWhileASendIsStillInFlight() {
        StepVerifier.create(send(texts(2, 10), this::heldSend))
                .then(() -> assertThat(pending).hasSize(2))
                .then(() -> pending.get(0).complete(null))
                .expectNoEvent(Duration.ZERO)
                .then(() -> pending.get(1).complete(null))
                .verifyComplete();
    }

    @Test
    void aFailedSendFailsTheSendCancelsThePublisherAndReleasesTheWaitingMessage() {
        TestPublisher<WebSocketMessage> publisher = TestPublisher.create();
        WebSocketMessage waiting = counted((int) WINDOW);

        StepVerifier.create(send(publisher.flux(), this::heldSend))
                .then(() -> publisher.next(text("first"), waiting))
                .then(() -> pending.get(0).completeExceptionally(new IOException("The client is gone")))
                .verifyErrorMessage("The client is gone");

        publisher.assertCancelled();
        assertThat(released(waiting)).isTrue();
        assertThat(handed).containsExactly("first");
    }

    @Test
    void thePublishersErrorFailsTheSend() {
        StepVerifier.create(send(Flux.concat(texts(1, 5), Flux.error(new IllegalStateException("boom"))),
                message -> CompletableFuture.completedFuture(null)))
                .verifyErrorMessage("boom");
    }

    @Test
    void cancellingTheSendCancelsThePublisherAndReleasesTheWaitingMessage() {
        TestPublisher<WebSocketMessage> publisher = TestPublisher.create();
        WebSocketMessage waiting = counted((int) WINDOW);
        Disposable sending = send(publisher.flux(), this::heldSend).subscribe();
        publisher.next(text("first"), waiting);

        sending.dispose();

        publisher.assertCancelled();
        assertThat(released(waiting)).isTrue();
    }

    @Test
    void theWindowLeavesTheEngineRoomForItsControlFramesAndIsNeverNegative() {
        assertThat(MessageSender.windowFor(4L * 1024 * 1024)).isEqualTo(WINDOW);
        assertThat(MessageSender.windowFor(10_000)).isLessThan(10_000).isPositive();
        assertThat(MessageSender.windowFor(1)).isZero();
    }
}
