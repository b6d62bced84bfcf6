package io.sprout.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HeaderNameCacheTest {

    @Test
    void returnsTheCanonicalConstantForACommonNameInAnyCase() {
        assertThat(lookUp("content-LENGTH")).isSameAs(HeaderNames.CONTENT_LENGTH);
        assertThat(lookUp("HOST")).isSameAs(HeaderNames.HOST);
        assertThat(lookUp("te")).isSameAs(HeaderNames.TE);
    }

    @Test
    void canonicalisesCommonNamesThatHaveNoConstant() {
        assertThat(lookUp("x-forwarded-for")).isEqualTo("X-Forwarded-For").isSameAs(lookUp("X-FORWARDED-FOR"));
    }

    @Test
    void keepsAnUncommonNameAsSent() {
        assertThat(lookUp("X-Custom-Thing")).isEqualTo("X-Custom-Thing");
        String longerThanAnyCommonName = "X-A-Name-Longer-Than-Any-Common-One";
        assertThat(lookUp(longerThanAnyCommonName)).isEqualTo(longerThanAnyCommonName);
    }

    @Test
    void readsOnlyTheGivenRange() {
        byte[] line = "Host: example".getBytes(StandardCharsets.ISO_8859_1);
        assertThat(HeaderNameCache.of(line, 0, 4)).isSameAs(HeaderNames.HOST);
    }

    private static String lookUp(String name) {
        byte[] padded = ("::" + name + "::").getBytes(StandardCharsets.ISO_8859_1);
        return HeaderNameCache.of(padded, 2, name.length());
    }
}
