package io.sprout.engine.tls;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The server's preference decides among the protocols both sides speak. */
class AlpnChoiceTest {

    @Test
    void choosesTheFirstServedProtocolTheClientOffers() {
        AlpnChoice choice = new AlpnChoice(List.of("h2", ServerTls.HTTP_1_1));

        assertThat(choice.select(List.of("http/1.1", "h2"))).isEqualTo("h2");
        assertThat(choice.select(List.of("spdy/3", "http/1.1"))).isEqualTo("http/1.1");
    }

    @Test
    void choosesNothingWhenNoProtocolIsInCommon() {
        AlpnChoice choice = new AlpnChoice(List.of(ServerTls.HTTP_1_1));

        assertThat(choice.select(List.of("h2"))).as("the engine then answers no_application_protocol").isNull();
    }
}
