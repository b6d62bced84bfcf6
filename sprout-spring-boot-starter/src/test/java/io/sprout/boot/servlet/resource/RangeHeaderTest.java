package io.sprout.boot.servlet.resource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Every rule of the {@code Range} header against a 1000-byte resource. */
class RangeHeaderTest {

    private static final long LENGTH = 1000;

    @ParameterizedTest(name = "{0} -> {1}-{2}")
    @CsvSource(delimiter = ';', value = {
            "bytes=0-0; 0; 0",
            "bytes=10-19; 10; 19",
            "bytes=990-; 990; 999",
            "bytes=990-5000; 990; 999",
            "bytes=-5; 995; 999",
            "bytes=-5000; 0; 999",
            "BYTES=1-2 ; 1; 2",
            "bytes=0-99999999999999999999999; 0; 999"})
    void honoursOneSatisfiableRange(String header, long first, long last) {
        assertThat(RangeHeader.parse(header, LENGTH)).isEqualTo(new ByteRange.Part(first, last));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"bytes=1000-", "bytes=1000-1001", "bytes=-0", "bytes=99999999999999999999999-"})
    void refusesARangeThatStartsPastTheEnd(String header) {
        assertThat(RangeHeader.parse(header, LENGTH)).isInstanceOf(ByteRange.Unsatisfiable.class);
    }

    @ParameterizedTest(name = "{0}")
    @NullSource
    @ValueSource(strings = {"", "items=0-1", "bytes=", "bytes=-", "bytes=5", "bytes=9-1", "bytes=a-b", "bytes=+1-2",
            "bytes=0-1,5-6", "bytes= 0 - x", "bytes = 0-1"})
    void ignoresWhatItDoesNotHonourAndSendsTheWhole(String header) {
        assertThat(RangeHeader.parse(header, LENGTH)).isInstanceOf(ByteRange.Whole.class);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"bytes=0-", "bytes=-1", "bytes=0-0"})
    void nothingOfAnEmptyResourceIsInAnyRange(String header) {
        assertThat(RangeHeader.parse(header, 0)).isInstanceOf(ByteRange.Unsatisfiable.class);
    }

    @Test
    void describesThePartForContentRange() {
        ByteRange.Part part = new ByteRange.Part(10, 19);
        assertThat(part.length()).isEqualTo(10);
        assertThat(part.contentRange(LENGTH)).isEqualTo("bytes 10-19/1000");
    }
}
