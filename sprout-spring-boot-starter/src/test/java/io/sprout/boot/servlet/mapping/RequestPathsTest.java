package io.sprout.boot.servlet.mapping;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class RequestPathsTest {

    @ParameterizedTest
    @CsvSource({
            "/, /",
            "/a/b, /a/b",
            "/a/b/, /a/b/",
            "//a///b, /a/b",
            "/a/./b, /a/b",
            "/a/x/../b, /a/b",
            "/a;jsessionid=1/b;v=2, /a/b",
            "/caf%C3%A9, /café",
            "/a%20b, /a b",
            "/a/.., /"})
    void normalises(String raw, String expected) {
        assertThat(RequestPaths.normalize(raw)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/..", "/a/../..", "/a%2Fb", "/a%5Cb", "/a%00", "/a%zz", "/a%4", "relative", "", "/a\\b"})
    void rejects(String raw) {
        assertThat(RequestPaths.normalize(raw)).isNull();
    }
}
