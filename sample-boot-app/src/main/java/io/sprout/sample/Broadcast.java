package io.sprout.sample;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * One broadcast, the same on both stacks: its messages are built once, stamped with the broadcast's start (see
 * {@link BroadcastMessage}), and handed to every recipient in turn by the stack's send function, which says whether
 * the recipient took the message. Runs on the calling thread and blocks as long as the send function does.
 */
public final class Broadcast {

    private Broadcast() {
    }

    /**
     * Sends {@code messages} messages of {@code size} characters to each of {@code recipients} (a snapshot: sessions
     * opening meanwhile get nothing), each text wrapped once by {@code wrap} for the stack's send function.
     */
    public static <R, M> BroadcastResult fanOut(Collection<R> recipients, int messages, int size,
            Function<String, M> wrap, BiPredicate<R, M> send) {
        long startMicros = BroadcastMessage.nowMicros();
        long start = System.nanoTime();
        List<M> texts = new ArrayList<>(messages);
        for (int i = 0; i < messages; i++) {
            texts.add(wrap.apply(BroadcastMessage.text(i, startMicros, size)));
        }
        List<R> snapshot = List.copyOf(recipients);
        long sent = 0;
        for (R recipient : snapshot) {
            for (M text : texts) {
                if (send.test(recipient, text)) {
                    sent++;
                }
            }
        }
        long failed = (long) snapshot.size() * messages - sent;
        return new BroadcastResult(snapshot.size(), messages, size, sent, failed,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

}
