package io.sprout.engine.tls;

import org.junit.jupiter.api.Test;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The first-record parser, byte for byte: a ClientHello written out by hand, real ones from the JDK's client, every
 * prefix of them, every way a record or its fields can be malformed, and random corruption that must never make it
 * throw. It must never move the buffer either: the same bytes go to the engine afterwards.
 */
class ClientHelloParserTest {

    /**
     * A minimal ClientHello, field by field: record header (handshake, TLS 1.0 record version, 74 bytes), handshake
     * header (client_hello, 70 bytes), client_version 3.3, 32 bytes of random, an empty session id, one cipher
     * suite (TLS_AES_128_GCM_SHA256), the null compression method, then 27 bytes of extensions: supported_versions
     * (TLS 1.3) and server_name with the host name "Example.COM".
     */
    private static final byte[] BY_HAND = HexFormat.of().parseHex("""
            160301004a\
            01000046\
            0303\
            000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\
            00\
            00021301\
            0100\
            001b\
            002b0003020304\
            0000 0010 000e 00 000b 4578616d706c652e434f4d""".replace(" ", ""));

    @Test
    void readsTheHostNameOfAClientHelloWrittenByHandInLowerCase() {
        assertThat(parse(BY_HAND)).isEqualTo(new FirstBytes.ClientHello("example.com"));
    }

    @Test
    void readsTheHostNameOfTheJdkClientsHellos() {
        assertThat(parse(jdkHello("other.test", "TLSv1.3"))).isEqualTo(new FirstBytes.ClientHello("other.test"));
        assertThat(parse(jdkHello("localhost", "TLSv1.2"))).isEqualTo(new FirstBytes.ClientHello("localhost"));
        assertThat(parse(jdkHello(null, "TLSv1.3"))).isEqualTo(new FirstBytes.ClientHello(null));
    }

    @Test
    void needsTheWholeFirstRecordAndSaysSoForEveryPrefix() {
        for (byte[] hello : List.of(BY_HAND, jdkHello("other.test", "TLSv1.3"))) {
            for (int length = 0; length < hello.length; length++) {
                assertThat(parse(Arrays.copyOf(hello, length))).as("prefix of %d bytes", length)
                        .isEqualTo(FirstBytes.INCOMPLETE);
            }
        }
    }

    @Test
    void leavesTheBufferAsItWas() {
        ByteBuffer in = ByteBuffer.allocate(BY_HAND.length + 10).position(3);
        in.put(BY_HAND).flip().position(3);

        assertThat(ClientHelloParser.parse(in)).isEqualTo(new FirstBytes.ClientHello("example.com"));

        assertThat(in.position()).isEqualTo(3);
        assertThat(in.limit()).isEqualTo(3 + BY_HAND.length);
    }

    @Test
    void ignoresBytesAfterTheFirstRecord() {
        byte[] withMore = Arrays.copyOf(BY_HAND, BY_HAND.length + 7);
        assertThat(parse(withMore)).isEqualTo(new FirstBytes.ClientHello("example.com"));
    }

    @Test
    void tellsPlaintextHttpFromOtherPlaintext() {
        assertThat(parse(ascii("GET / HTTP/1.1\r\n"))).isEqualTo(new FirstBytes.Plaintext(true));
        assertThat(parse(ascii("p"))).isEqualTo(new FirstBytes.Plaintext(true));
        assertThat(parse(new byte[] {0})).isEqualTo(new FirstBytes.Plaintext(false));
        // An SSLv2-format hello: not TLS this engine speaks.
        assertThat(parse(new byte[] {(byte) 0x80, 0x2e, 0x01})).isEqualTo(new FirstBytes.Plaintext(false));
        assertThat(parse(ascii("\r\n"))).isEqualTo(new FirstBytes.Plaintext(false));
    }

    @Test
    void rejectsMalformedRecords() {
        assertMalformed(bytes(0x16, 0x02), "an SSL 2 record version");
        assertMalformed(bytes(0x16, 0x03, 0x01, 0x00, 0x00), "an empty record");
        assertMalformed(bytes(0x16, 0x03, 0x01, 0x40, 0x01), "a record over 16 KiB");
        byte[] serverHello = BY_HAND.clone();
        serverHello[5] = 2;
        assertMalformed(serverHello, "a ServerHello");
    }

    @Test
    void rejectsMalformedFieldsInsideTheHello() {
        byte[] sessionIdTooLong = BY_HAND.clone();
        sessionIdTooLong[43] = (byte) 0xff;
        assertMalformed(sessionIdTooLong, "a session id longer than the message");
        byte[] extensionsShort = BY_HAND.clone();
        extensionsShort[51] = 0x1a;
        assertMalformed(extensionsShort, "extensions that do not fill the message");
        byte[] nameWithSpace = BY_HAND.clone();
        nameWithSpace[BY_HAND.length - 4] = ' ';
        assertMalformed(nameWithSpace, "a host name with a space");
        byte[] nameNotAscii = BY_HAND.clone();
        nameNotAscii[BY_HAND.length - 1] = (byte) 0xc3;
        assertMalformed(nameNotAscii, "a host name that is not ASCII");
        byte[] emptyName = hello(serverNameExtension(0, new byte[0]));
        assertMalformed(emptyName, "an empty host name");
    }

    @Test
    void skipsNameTypesOtherThanHostNameAndExtensionsBeforeIt() {
        ByteArrayOutputStream list = new ByteArrayOutputStream();
        list.writeBytes(nameEntry(7, ascii("not a host")));
        list.writeBytes(nameEntry(0, ascii("second.example")));
        byte[] extension = concat(bytes(0x00, 0x00), uint16(list.size() + 2), uint16(list.size()),
                list.toByteArray());
        byte[] padding = concat(bytes(0x00, 0x15), uint16(5), new byte[5]);
        assertThat(parse(hello(concat(padding, extension)))).isEqualTo(new FirstBytes.ClientHello("second.example"));
    }

    @Test
    void reportsNoNameForAHelloWithoutExtensionsOrWithoutServerName() {
        assertThat(parse(hello(null))).isEqualTo(new FirstBytes.ClientHello(null));
        assertThat(parse(hello(bytes(0x00, 0x2b, 0x00, 0x03, 0x02, 0x03, 0x04))))
                .isEqualTo(new FirstBytes.ClientHello(null));
    }

    @Test
    void reportsNoNameForAHelloLongerThanItsFirstRecord() {
        byte[] spanning = BY_HAND.clone();
        spanning[8] = (byte) 0xff;
        assertThat(parse(spanning)).isEqualTo(new FirstBytes.ClientHello(null));
    }

    @Test
    void neverThrowsNorMovesTheBufferWhateverTheBytes() {
        Random random = new Random(42);
        byte[] real = jdkHello("other.test", "TLSv1.3");
        for (int round = 0; round < 20_000; round++) {
            byte[] corrupt = round % 4 == 0 ? randomBytes(random, random.nextInt(600)) : real.clone();
            for (int flips = random.nextInt(4); flips >= 0 && corrupt.length > 0; flips--) {
                corrupt[random.nextInt(corrupt.length)] = (byte) random.nextInt(256);
            }
            if (round % 3 == 0 && corrupt.length > 0) {
                corrupt = Arrays.copyOf(corrupt, random.nextInt(corrupt.length));
            }
            ByteBuffer in = ByteBuffer.wrap(corrupt);
            assertThat(ClientHelloParser.parse(in)).isNotNull();
            assertThat(in.position()).isZero();
            assertThat(in.limit()).isEqualTo(corrupt.length);
        }
    }

    private static void assertMalformed(byte[] bytes, String what) {
        assertThat(parse(bytes)).as(what).isInstanceOf(FirstBytes.Malformed.class);
    }

    private static FirstBytes parse(byte[] bytes) {
        return ClientHelloParser.parse(ByteBuffer.wrap(bytes));
    }

    /** The first record the JDK's client sends, asking for {@code serverName} (none when {@code null}). */
    private static byte[] jdkHello(String serverName, String protocol) {
        try {
            SSLEngine engine = TestContexts.client().createSSLEngine();
            engine.setUseClientMode(true);
            SSLParameters parameters = engine.getSSLParameters();
            parameters.setServerNames(serverName == null ? List.of() : List.of(new SNIHostName(serverName)));
            parameters.setProtocols(new String[] {protocol});
            engine.setSSLParameters(parameters);
            ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
            engine.wrap(ByteBuffer.allocate(0), out);
            return Arrays.copyOf(out.array(), out.position());
        } catch (javax.net.ssl.SSLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A ClientHello with the fixed fields of {@link #BY_HAND} and {@code extensions} ({@code null}: none). */
    private static byte[] hello(byte[] extensions) {
        byte[] fixed = Arrays.copyOfRange(BY_HAND, 9, 50);
        byte[] body = extensions == null ? fixed : concat(fixed, uint16(extensions.length), extensions);
        byte[] message = concat(bytes(0x01, 0x00), uint16(body.length), body);
        return concat(bytes(0x16, 0x03, 0x01), uint16(message.length), message);
    }

    private static byte[] serverNameExtension(int nameType, byte[] name) {
        byte[] entry = nameEntry(nameType, name);
        return concat(bytes(0x00, 0x00), uint16(entry.length + 2), uint16(entry.length), entry);
    }

    private static byte[] nameEntry(int nameType, byte[] name) {
        return concat(bytes(nameType), uint16(name.length), name);
    }

    private static byte[] uint16(int value) {
        return bytes(value >> 8, value);
    }

    private static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        if (length > 0 && random.nextBoolean()) {
            bytes[0] = 0x16;
        }
        return bytes;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
