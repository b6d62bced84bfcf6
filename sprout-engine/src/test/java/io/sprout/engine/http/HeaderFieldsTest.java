package io.sprout.engine.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HeaderFieldsTest {

    @Test
    void looksUpNamesIgnoringCase() {
        HeaderFields fields = new HeaderFields().add("Content-Type", "text/plain");

        assertThat(fields.get("content-type")).isEqualTo("text/plain");
        assertThat(fields.get("CONTENT-TYPE")).isEqualTo("text/plain");
        assertThat(fields.contains("Content-type")).isTrue();
        assertThat(fields.get("Content-Length")).isNull();
        assertThat(fields.contains("Content")).isFalse();
    }

    @Test
    void keepsRepeatedFieldsInOrderAndReturnsTheFirstValue() {
        HeaderFields fields = new HeaderFields().add("Accept", "a").add("X", "1").add("accept", "b");

        assertThat(fields.get("ACCEPT")).isEqualTo("a");
        assertThat(fields.all("Accept")).containsExactly("a", "b");
        assertThat(fields.count("Accept")).isEqualTo(2);
        assertThat(fields.count("Missing")).isZero();
        assertThat(fields.all("Missing")).isEmpty();
        assertThat(fields.size()).isEqualTo(3);
    }

    @Test
    void listsDistinctNamesWithTheCaseOfTheirFirstOccurrence() {
        HeaderFields fields = new HeaderFields().add("accept", "a").add("X-B", "1").add("ACCEPT", "b");

        assertThat(fields.names()).containsExactly("accept", "X-B");
    }

    @Test
    void exposesFieldsByIndexAndRefusesIndexesOutOfRange() {
        HeaderFields fields = new HeaderFields().add("A", "1").add("B", "2");

        assertThat(fields.name(1)).isEqualTo("B");
        assertThat(fields.value(0)).isEqualTo("1");
        assertThatThrownBy(() -> fields.name(2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> fields.value(-1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void growsBeyondItsInitialCapacity() {
        HeaderFields fields = new HeaderFields(0);
        for (int i = 0; i < 50; i++) {
            fields.add("X-" + i, Integer.toString(i));
        }

        assertThat(fields.size()).isEqualTo(50);
        assertThat(fields.get("x-49")).isEqualTo("49");
        assertThat(fields.name(0)).isEqualTo("X-0");
    }

    @Test
    void setReplacesEveryFieldOfTheNameAtThePositionOfTheFirst() {
        HeaderFields fields = new HeaderFields().add("A", "1").add("Via", "x").add("B", "2").add("via", "y");

        fields.set("VIA", "z");

        assertThat(fields.toString()).isEqualTo("A: 1\nVIA: z\nB: 2\n");
    }

    @Test
    void setAddsAMissingFieldAtTheEnd() {
        HeaderFields fields = new HeaderFields().add("A", "1");

        fields.set("B", "2");

        assertThat(fields.toString()).isEqualTo("A: 1\nB: 2\n");
    }

    @Test
    void setWithNullRemovesTheField() {
        HeaderFields fields = new HeaderFields().add("A", "1").add("B", "2").add("a", "3");

        fields.set("A", null);
        fields.set("Missing", null);

        assertThat(fields.toString()).isEqualTo("B: 2\n");
    }

    @Test
    void removeReportsWhetherAnythingWasRemoved() {
        HeaderFields fields = new HeaderFields().add("A", "1").add("B", "2").add("a", "3");

        assertThat(fields.remove("a")).isTrue();
        assertThat(fields.remove("a")).isFalse();
        assertThat(fields.size()).isEqualTo(1);
        assertThat(fields.name(0)).isEqualTo("B");
    }

    @Test
    void clearEmptiesAndStaysUsable() {
        HeaderFields fields = new HeaderFields().add("A", "1");

        fields.clear();

        assertThat(fields.isEmpty()).isTrue();
        assertThat(fields.get("A")).isNull();
        fields.add("B", "2");
        assertThat(fields.get("b")).isEqualTo("2");
    }

    @Test
    void findsTokensInCommaSeparatedValuesOfEveryFieldOfTheName() {
        HeaderFields fields = new HeaderFields().add("Connection", "keep-alive").add("connection", " Upgrade ,\tTE");

        assertThat(fields.containsToken("Connection", "upgrade")).isTrue();
        assertThat(fields.containsToken("CONNECTION", "te")).isTrue();
        assertThat(fields.containsToken("Connection", "KEEP-ALIVE")).isTrue();
        assertThat(fields.containsToken("Connection", "close")).isFalse();
        assertThat(fields.containsToken("Connection", "alive")).isFalse();
        assertThat(fields.containsToken("Connection", "keep-alive, upgrade")).isFalse();
        assertThat(fields.containsToken("Upgrade", "upgrade")).isFalse();
    }

    @Test
    void rendersOneFieldPerLine() {
        assertThat(new HeaderFields().add("A", "1").add("b", "").toString()).isEqualTo("A: 1\nb: \n");
        assertThat(new HeaderFields().toString()).isEmpty();
    }
}
