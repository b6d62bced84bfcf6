package io.sprout.engine.tls;

/**
 * The key size in bits of a cipher suite's bulk cipher, read from its standard name, which is what the Servlet
 * attribute {@code jakarta.servlet.request.key_size} reports (Tomcat and Jetty read it from the name too).
 */
final class CipherStrength {

    private CipherStrength() {
    }

    /** E.g. 128 for {@code TLS_AES_128_GCM_SHA256}, 256 for ChaCha20; 0 for an unknown or {@code NULL} cipher. */
    static int keySize(String cipherSuite) {
        if (cipherSuite == null) {
            return 0;
        }
        int with = cipherSuite.indexOf("_WITH_");
        // TLS 1.3 names carry no key exchange: TLS_<cipher>_<hash>.
        String cipher = with >= 0 ? cipherSuite.substring(with + 6) : cipherSuite;
        if (cipher.startsWith("NULL")) {
            return 0;
        }
        if (cipher.contains("CHACHA20")) {
            return 256;
        }
        if (cipher.contains("3DES_EDE")) {
            return 168;
        }
        if (cipher.contains("DES40") || cipher.contains("RC4_40") || cipher.contains("RC2_CBC_40")) {
            return 40;
        }
        if (cipher.contains("DES_CBC")) {
            return 56;
        }
        for (int bits : new int[] {256, 192, 128}) {
            if (cipher.contains("_" + bits + "_") || cipher.endsWith("_" + bits)) {
                return bits;
            }
        }
        return 0;
    }
}
