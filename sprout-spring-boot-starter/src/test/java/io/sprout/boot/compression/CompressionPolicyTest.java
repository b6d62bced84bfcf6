package io.sprout.boot.compression;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class CompressionPolicyTest {

    private final CompressionPolicy policy = new CompressionPolicy(2048, List.of("text/html", "application/json",
            "text/*x"), List.of(Pattern.compile(".*MSIE 6.*")));

    @Test
    void compressesListedTypesAtOrAboveTheMinimumOrOfUnknownLength() {
        assertThat(policy.applies("gzip, br", null, "application/json;charset=UTF-8", null, 200, 2048)).isTrue();
        assertThat(policy.applies("gzip", null, "text/html", null, 200, -1)).isTrue();
        assertThat(policy.applies("gzip", null, "text/html", null, 200, 2047)).isFalse();
    }

    @Test
    void respectsAcceptEncodingUserAgentsEncodingAndStatus() {
        assertThat(policy.applies(null, null, "text/html", null, 200, -1)).isFalse();
        assertThat(policy.applies("br", null, "text/html", null, 200, -1)).isFalse();
        assertThat(policy.applies("gzip;q=0", null, "text/html", null, 200, -1)).isFalse();
        assertThat(policy.applies("*", null, "text/html", null, 200, -1)).isTrue();
        assertThat(policy.applies("gzip", "Mozilla/4.0 (MSIE 6.0)", "text/html", null, 200, -1)).isFalse();
        assertThat(policy.applies("gzip", null, "text/html", "br", 200, -1)).isFalse();
        assertThat(policy.applies("gzip", null, "text/html", null, 304, -1)).isFalse();
        assertThat(policy.applies("gzip", null, "image/png", null, 200, -1)).isFalse();
    }
}
