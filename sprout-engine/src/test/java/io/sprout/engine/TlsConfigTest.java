package io.sprout.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;

/** The TLS configuration records: what they refuse, and which identity a server name gets. */
class TlsConfigTest {

    private final SSLContext defaultContext = context();
    private final SSLContext other = context();
    private final SSLContext wildcard = context();

    @Test
    void defaultsToNoClientAuthenticationAndATenSecondHandshake() {
        TlsConfig config = TlsConfig.of(defaultContext);

        assertThat(config.clientAuth()).isEqualTo(ClientAuth.NONE);
        assertThat(config.handshakeTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.contexts().get().defaultContext().sslContext()).isSameAs(defaultContext);
        assertThat(config.withClientAuth(ClientAuth.NEED).clientAuth()).isEqualTo(ClientAuth.NEED);
        assertThat(ServerConfig.builder().build().tls()).as("plaintext by default").isNull();
    }

    @Test
    void picksTheExactNameThenAOneLevelWildcardThenTheDefault() {
        TlsContexts contexts = TlsContexts.of(defaultContext)
                .withServerName("Other.example", TlsContext.of(other))
                .withServerName("*.example", TlsContext.of(wildcard));

        assertThat(contexts.forServerName("other.example").sslContext()).isSameAs(other);
        assertThat(contexts.forServerName("OTHER.EXAMPLE").sslContext()).isSameAs(other);
        assertThat(contexts.forServerName("api.example").sslContext()).isSameAs(wildcard);
        assertThat(contexts.forServerName("deep.api.example").sslContext()).isSameAs(defaultContext);
        assertThat(contexts.forServerName("example").sslContext()).isSameAs(defaultContext);
        assertThat(contexts.forServerName(null).sslContext()).isSameAs(defaultContext);
    }

    @Test
    void refusesProtocolsAndCipherSuitesTheContextDoesNotSupport() {
        InvalidConfigException protocols = catchThrowableOfType(InvalidConfigException.class,
                () -> TlsContext.of(defaultContext).withProtocols("TLSv1.3", "TLSv9"));
        InvalidConfigException ciphers = catchThrowableOfType(InvalidConfigException.class,
                () -> TlsContext.of(defaultContext).withCipherSuites("TLS_NO_SUCH_CIPHER"));

        assertThat(protocols.field()).isEqualTo("protocols");
        assertThat(protocols.value()).isEqualTo(List.of("TLSv1.3", "TLSv9"));
        assertThat(protocols.allowed()).contains("TLSv1.3").contains("TLSv1.2");
        assertThat(ciphers.field()).isEqualTo("cipherSuites");
        assertThat(TlsContext.of(defaultContext).withProtocols("TLSv1.3").protocols()).containsExactly("TLSv1.3");
    }

    @Test
    void refusesAnUninitialisedContext() throws Exception {
        InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class,
                () -> TlsContext.of(SSLContext.getInstance("TLS")));

        assertThat(e.field()).isEqualTo("sslContext");
        assertThat(e.allowed()).isEqualTo("an initialised SSLContext");
    }

    @Test
    void refusesServerNamesThatAreNoHostNames() {
        for (String bad : List.of("", "has space.example", "*.*.example", "a*.example", "under_score.example",
                "-leading.example")) {
            InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class,
                    () -> new TlsContexts(TlsContext.of(defaultContext), Map.of(bad, TlsContext.of(other))));
            assertThat(e).as(bad).isNotNull();
            assertThat(e.field()).isEqualTo("byServerName");
            assertThat(e.value()).isEqualTo(bad);
        }
        assertThatThrownBy(() -> new TlsContexts(TlsContext.of(defaultContext),
                Map.of("a.example", TlsContext.of(other), "A.example", TlsContext.of(wildcard))))
                .isInstanceOfSatisfying(InvalidConfigException.class,
                        e -> assertThat(e.allowed()).contains("distinct"));
    }

    @Test
    void parsesClientAuthLikeTheOtherEnums() {
        assertThat(ClientAuth.parse(" want ")).isEqualTo(ClientAuth.WANT);
        InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class,
                () -> ClientAuth.parse("sometimes"));
        assertThat(e.field()).isEqualTo("clientAuth");
        assertThat(e.allowed()).isEqualTo("one of none, want, need");
    }

    private static SSLContext context() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, null, null);
            return context;
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
