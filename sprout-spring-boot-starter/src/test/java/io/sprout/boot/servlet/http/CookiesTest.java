package io.sprout.boot.servlet.http;

import jakarta.servlet.http.Cookie;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CookiesTest {

    @Test
    void parsesPairsAndSkipsInvalidNames() {
        List<Cookie> cookies = Cookies.parse(List.of("a=1; b=\"quoted\"; =bad; $Version=1", "c=3"));
        assertThat(cookies).extracting(Cookie::getName).containsExactly("a", "b", "c");
        assertThat(cookies.get(1).getValue()).isEqualTo("quoted");
    }

    @Test
    void formatsEveryAttribute() {
        Cookie cookie = new Cookie("id", "v");
        cookie.setPath("/p");
        cookie.setDomain("example.test");
        cookie.setSecure(true);
        cookie.setHttpOnly(true);
        cookie.setAttribute("Partitioned", "");
        assertThat(Cookies.format(cookie, "Lax")).isEqualTo(
                "id=v; Domain=example.test; Path=/p; Secure; HttpOnly; Partitioned; SameSite=Lax");
    }

    @Test
    void maxAgeAddsExpiresAndOwnSameSiteWins() {
        Cookie cookie = new Cookie("gone", "");
        cookie.setMaxAge(0);
        cookie.setAttribute("SameSite", "None");
        assertThat(Cookies.format(cookie, "Strict")).isEqualTo(
                "gone=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:10 GMT; SameSite=None");
    }
}
