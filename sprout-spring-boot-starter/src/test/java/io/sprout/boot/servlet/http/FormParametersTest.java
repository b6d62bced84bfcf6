package io.sprout.boot.servlet.http;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class FormParametersTest {

    @Test
    void decodesPairsRepeatsAndEdgeCases() {
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        FormParameters.parse("a=1&b=x+y&a=%C3%A9&flag&&=nameless&bad=%zz", StandardCharsets.UTF_8, parameters);
        assertThat(parameters).containsExactly(Map.entry("a", List.of("1", "é")), Map.entry("b", List.of("x y")),
                Map.entry("flag", List.of("")), Map.entry("bad", List.of("%zz")));
    }
}
