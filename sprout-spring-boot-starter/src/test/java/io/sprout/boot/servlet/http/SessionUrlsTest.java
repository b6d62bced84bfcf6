package io.sprout.boot.servlet.http;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** URL session tracking's three rules: reading the id off a path, adding it to a URL, and where it may go. */
class SessionUrlsTest {

    @Test
    void readsTheIdFromAPathParameter() {
        assertThat(SessionUrls.idIn("/cart;jsessionid=ABC123")).isEqualTo("ABC123");
        assertThat(SessionUrls.idIn("/cart;jsessionid=ABC123;v=2")).isEqualTo("ABC123");
        assertThat(SessionUrls.idIn("/a;jsessionid=XYZ/b")).isEqualTo("XYZ");
        assertThat(SessionUrls.idIn("/cart;v=2;jsessionid=DEF")).isEqualTo("DEF");
        assertThat(SessionUrls.idIn("/cart")).isNull();
        assertThat(SessionUrls.idIn("/cart;jsessionid=")).isNull();
        assertThat(SessionUrls.idIn("/cart;JSESSIONID=ABC")).as("the parameter name is case-sensitive").isNull();
        assertThat(SessionUrls.idIn(null)).isNull();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "/shop/cart, /shop/cart;jsessionid=ID",
            "/shop/cart?item=1, /shop/cart;jsessionid=ID?item=1",
            "/shop/cart#top, /shop/cart;jsessionid=ID#top",
            "/shop/cart?q=a#b, /shop/cart;jsessionid=ID?q=a#b",
            "cart?x=?, cart;jsessionid=ID?x=?",
            "/shop/cart;jsessionid=OLD, /shop/cart;jsessionid=OLD",
            "http://host/shop, http://host/shop;jsessionid=ID"})
    void addsTheIdBeforeTheQueryAndFragment(String url, String encoded) {
        assertThat(SessionUrls.encode(url, "ID")).isEqualTo(encoded);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cart", "../cart", "?page=2", "/shop", "/shop/", "/shop/cart",
            "http://example.test:8080/shop/a", "HTTP://EXAMPLE.test:8080/shop", "//example.test:8080/shop/a"})
    void encodesUrlsIntoThisContext(String url) {
        assertThat(SessionUrls.pointsInto(url, "http", "example.test", 8080, "/shop")).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"", "#top", "/other", "/shopping", "http://example.test:9090/shop",
            "https://example.test:8080/shop", "http://elsewhere.test:8080/shop", "//elsewhere.test/shop",
            "mailto:someone@example.test", "http://example.test:8080/other", "http://[bad"})
    void neverEncodesUrlsLeavingThisContext(String url) {
        assertThat(SessionUrls.pointsInto(url, "http", "example.test", 8080, "/shop")).isFalse();
    }

    @Test
    void everyPathOfTheSameServerIsInTheRootContext() {
        assertThat(SessionUrls.pointsInto("/anything", "http", "example.test", 80, "")).isTrue();
        assertThat(SessionUrls.pointsInto("http://example.test/", "http", "example.test", 80, "")).isTrue();
        assertThat(SessionUrls.pointsInto("https://example.test/", "https", "example.test", 443, "")).isTrue();
    }
}
