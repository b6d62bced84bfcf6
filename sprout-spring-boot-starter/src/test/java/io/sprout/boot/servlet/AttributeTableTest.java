package io.sprout.boot.servlet;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

class AttributeTableTest {

    @Test
    void putsReplacesAndRemoves() {
        AttributeTable table = new AttributeTable(4);
        assertThat(table.put("a", 1)).isNull();
        assertThat(table.put("a", 2)).isEqualTo(1);
        assertThat(table.get("a")).isEqualTo(2);
        assertThat(table.remove("a")).isEqualTo(2);
        assertThat(table.remove("a")).isNull();
        assertThat(table.get("a")).isNull();
        assertThat(table.remove("never")).isNull();
    }

    @Test
    void findsNamesPastARemovedOne() {
        // "Aa" and "BB" have the same hash code, so the second is probed past the first.
        AttributeTable table = new AttributeTable(4);
        table.put("Aa", 1);
        table.put("BB", 2);
        table.remove("Aa");
        assertThat(table.get("BB")).isEqualTo(2);
        assertThat(table.put("Aa", 3)).isNull();
        assertThat(table.get("Aa")).isEqualTo(3);
        assertThat(table.names()).containsExactlyInAnyOrder("Aa", "BB");
    }

    @Test
    void keepsEveryEntryAcrossGrowth() {
        AttributeTable table = new AttributeTable(2);
        for (int i = 0; i < 1000; i++) {
            table.put("name" + i, i);
            if (i % 3 == 0) {
                table.remove("name" + i);
            }
        }
        for (int i = 0; i < 1000; i++) {
            assertThat(table.get("name" + i)).isEqualTo(i % 3 == 0 ? null : i);
        }
        assertThat(table.names()).hasSize(666).doesNotContain("name0").contains("name1", "name998");
    }

    @Test
    void namesAreASnapshot() {
        AttributeTable table = new AttributeTable(4);
        table.put("a", 1);
        var names = table.names();
        table.put("b", 2);
        table.remove("a");
        assertThat(names).containsExactly("a");
    }

    @Test
    void refusesNullNamesAndValues() {
        AttributeTable table = new AttributeTable(4);
        assertThatNullPointerException().isThrownBy(() -> table.get(null));
        assertThatNullPointerException().isThrownBy(() -> table.put("a", null));
    }

    @Test
    void readersSeeEveryStableEntryWhileAWriterChurnsAndGrows() throws InterruptedException {
        AttributeTable table = new AttributeTable(2);
        for (int i = 0; i < 8; i++) {
            table.put("stable" + i, i);
        }
        AtomicReference<String> wrong = new AtomicReference<>();
        Thread reader = Thread.ofPlatform().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                for (int i = 0; i < 8; i++) {
                    if (!Integer.valueOf(i).equals(table.get("stable" + i))) {
                        wrong.compareAndSet(null, "stable" + i + " -> " + table.get("stable" + i));
                    }
                }
                Object churned = table.get("churn7");
                if (churned != null && !"value7".equals(churned)) {
                    wrong.compareAndSet(null, "churn7 -> " + churned);
                }
            }
        });
        for (int round = 0; round < 2000; round++) {
            for (int i = 0; i < 40; i++) {
                table.put("churn" + i, "value" + i);
            }
            for (int i = 0; i < 40; i++) {
                table.remove("churn" + i);
            }
        }
        reader.interrupt();
        reader.join();
        assertThat(wrong.get()).isNull();
    }
}
