package io.sprout.boot.reactive;

import io.sprout.engine.Headers;
import io.sprout.engine.server.Sprout;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Spring's {@link HttpHeaders} over the engine's headers: every change shows on the other side at once. */
class SproutHeadersAdapterTest {

    private final Headers engine = Sprout.headers();
    private final HttpHeaders headers = new HttpHeaders(new SproutHeadersAdapter(engine));

    @Test
    void writesThroughToTheEngineKeepingTheOrderOfValues() {
        headers.add("X-Multi", "one");
        headers.add("x-multi", "two");
        headers.set("Content-Type", "text/plain");
        headers.add("X-MULTI", "three");

        assertThat(engine.all("x-multi")).containsExactly("one", "two", "three");
        assertThat(engine.get("content-type")).isEqualTo("text/plain");
        assertThat(engine.names()).containsExactly("X-Multi", "Content-Type");
    }

    @Test
    void readsWhatTheEngineHoldsWhateverTheCaseOfTheName() {
        engine.add("Accept", "text/html").add("ACCEPT", "application/json").add("Host", "example.com");

        assertThat(headers.get("accept")).containsExactly("text/html", "application/json");
        assertThat(headers.getFirst("HOST")).isEqualTo("example.com");
        assertThat(headers.containsHeader("host")).isTrue();
        assertThat(headers.headerNames()).containsExactly("Accept", "Host");
        assertThat(headers.size()).isEqualTo(2);
        assertThat(headers.get("Missing")).isNull();
    }

    @Test
    void replacesAndRemovesEveryValueOfAName() {
        engine.add("Vary", "Accept").add("vary", "Origin").add("Allow", "GET");

        headers.put("VARY", List.of("Cookie"));
        assertThat(engine.all("Vary")).containsExactly("Cookie");

        assertThat(headers.remove("allow")).containsExactly("GET");
        assertThat(engine.contains("Allow")).isFalse();

        headers.setContentLength(12);
        headers.clear();
        assertThat(engine.isEmpty()).isTrue();
    }

    @Test
    void removesThroughTheNamesAndSetsThroughTheEntries() {
        engine.add("A", "1").add("B", "2").add("b", "3").add("C", "4");

        headers.headerNames().removeIf(name -> name.equals("A"));
        for (Map.Entry<String, List<String>> entry : headers.headerSet()) {
            if (entry.getKey().equalsIgnoreCase("b")) {
                assertThat(entry.getValue()).containsExactly("2", "3");
                entry.setValue(List.of("5"));
            }
        }

        assertThat(engine.names()).containsExactly("B", "C");
        assertThat(engine.all("B")).containsExactly("5");
        assertThat(headers.toSingleValueMap()).containsExactly(Map.entry("B", "5"), Map.entry("C", "4"));
    }
}
