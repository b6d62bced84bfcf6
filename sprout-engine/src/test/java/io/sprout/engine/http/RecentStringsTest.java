package io.sprout.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RecentStringsTest {

    private static String decode(RecentStrings recent, int slot, String value) {
        byte[] bytes = ("  " + value).getBytes(StandardCharsets.ISO_8859_1);
        return recent.decode(slot, bytes, 2, bytes.length - 2);
    }

    @Test
    void returnsTheStringOfTheSameBytesAtTheSameSlotAgain() {
        RecentStrings recent = new RecentStrings(4);
        String first = decode(recent, 0, "/hello");

        assertThat(decode(recent, 0, "/hello")).isSameAs(first);
        assertThat(decode(recent, 0, "/other")).isEqualTo("/other").isNotSameAs(first);
        assertThat(decode(recent, 1, "/hello")).as("another slot").isNotSameAs(first);
    }

    @Test
    void remembersEverySlotUpToItsMaximumAndNoneBeyond() {
        RecentStrings recent = new RecentStrings(40);
        String[] first = new String[41];
        for (int slot = 0; slot <= 40; slot++) {
            first[slot] = decode(recent, slot, "value-" + slot);
        }

        for (int slot = 0; slot < 40; slot++) {
            assertThat(decode(recent, slot, "value-" + slot)).as("slot %d", slot).isSameAs(first[slot]);
        }
        assertThat(decode(recent, 40, "value-40")).isEqualTo("value-40").isNotSameAs(first[40]);
    }

    @Test
    void decodesLongValuesFreshEveryTime() {
        RecentStrings recent = new RecentStrings(4);
        String value = "x".repeat(257);

        assertThat(decode(recent, 0, value)).isEqualTo(value).isNotSameAs(decode(recent, 0, value));
    }
}
