package io.sprout.sample;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class BroadcastTest {

    @Test
    void sendsEveryMessageToEveryRecipientInOrderAndCountsRefusals() {
        List<String> delivered = new ArrayList<>();
        BroadcastResult result = Broadcast.fanOut(List.of("a", "b", "full"), 3, 64, (text) -> "<" + text + ">",
                (recipient, message) -> !"full".equals(recipient) && delivered.add(recipient + message));
        assertThat(result.sessions()).isEqualTo(3);
        assertThat(result.messages()).isEqualTo(3);
        assertThat(result.size()).isEqualTo(64);
        assertThat(result.sent()).isEqualTo(6);
        assertThat(result.failed()).isEqualTo(3);
        assertThat(delivered).hasSize(6);
        assertThat(delivered.get(0)).startsWith("a<broadcast 0 ");
        assertThat(delivered.get(2)).startsWith("a<broadcast 2 ");
        assertThat(delivered.get(3)).startsWith("b<broadcast 0 ");
        Set<String> stamps = new HashSet<>();
        delivered.forEach((message) -> stamps.add(message.split(" ")[2]));
        assertThat(stamps).as("one start time per broadcast").hasSize(1);
    }

    @Test
    void sendsNothingWithoutRecipients() {
        BroadcastResult result = Broadcast.fanOut(List.of(), 5, 48, (text) -> text, (recipient, message) -> true);
        assertThat(result).isEqualTo(new BroadcastResult(0, 5, 48, 0, 0, result.millis()));
    }

    @Test
    void messageIsPaddedToItsSizeAndCarriesSequenceAndStart() {
        String text = BroadcastMessage.text(7, 1_795_000_000_123_456L, 64);
        assertThat(text).hasSize(64).startsWith("broadcast 7 1795000000123456 x").endsWith("xxx");
        assertThat(BroadcastMessage.text(99_999, Long.MAX_VALUE, BroadcastMessage.MIN_SIZE))
            .hasSize(BroadcastMessage.MIN_SIZE);
    }

    @Test
    void rejectsASizeTooSmallForTheHeader() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> BroadcastMessage.text(0, 0, BroadcastMessage.MIN_SIZE - 1))
            .withMessageContaining("size must be at least 48, was 47");
    }

    @Test
    void resultRefusesNegativeCounts() {
        assertThatIllegalArgumentException().isThrownBy(() -> new BroadcastResult(1, 1, 48, -1, 0, 0))
            .withMessageContaining("sent=-1");
    }

}
