package io.sprout.engine.tls;

import io.sprout.engine.TlsConfig;
import io.sprout.engine.TlsContexts;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The record pool's size, and a start that cannot have its contexts. */
class ServerTlsTest {

    @Test
    void sizesRecordBuffersForAWholeRecord() {
        ServerTls tls = ServerTls.start(TlsConfig.of(TestContexts.localhost()), List.of(ServerTls.HTTP_1_1), 4);

        assertThat(tls.pool().bufferSize()).isGreaterThanOrEqualTo((1 << 14) + 256 + 5);
    }

    @Test
    void failsToStartWhenTheContextsCannotBeHad() {
        TlsConfig failing = TlsConfig.reloading(() -> {
            throw new IllegalStateException("the key store is gone");
        });
        TlsConfig empty = TlsConfig.reloading(() -> (TlsContexts) null);

        assertThatThrownBy(() -> ServerTls.start(failing, List.of(ServerTls.HTTP_1_1), 4))
                .isInstanceOf(IllegalStateException.class).hasRootCauseMessage("the key store is gone");
        assertThatThrownBy(() -> ServerTls.start(empty, List.of(ServerTls.HTTP_1_1), 4))
                .isInstanceOf(IllegalStateException.class);
    }
}
