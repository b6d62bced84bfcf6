package io.sprout.engine.tls;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Key sizes read from cipher suite names, TLS 1.3 and 1.2 alike. */
class CipherStrengthTest {

    @ParameterizedTest
    @CsvSource({
            "TLS_AES_128_GCM_SHA256, 128",
            "TLS_AES_256_GCM_SHA384, 256",
            "TLS_CHACHA20_POLY1305_SHA256, 256",
            "TLS_AES_128_CCM_8_SHA256, 128",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, 256",
            "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256, 128",
            "TLS_RSA_WITH_AES_256_CBC_SHA, 256",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, 256",
            "TLS_RSA_WITH_3DES_EDE_CBC_SHA, 168",
            "TLS_RSA_WITH_DES_CBC_SHA, 56",
            "TLS_RSA_EXPORT_WITH_DES40_CBC_SHA, 40",
            "TLS_ECDHE_RSA_WITH_RC4_128_SHA, 128",
            "TLS_DHE_RSA_WITH_CAMELLIA_256_CBC_SHA, 256",
            "TLS_ECDHE_RSA_WITH_ARIA_128_GCM_SHA256, 128",
            "TLS_RSA_WITH_NULL_SHA256, 0",
            "TLS_EMPTY_RENEGOTIATION_INFO_SCSV, 0",
            "SOMETHING_NEW, 0"
    })
    void readsTheBulkCiphersKeySizeFromTheName(String suite, int bits) {
        assertThat(CipherStrength.keySize(suite)).isEqualTo(bits);
    }
}
