package io.sprout.engine.tls;

import io.sprout.engine.TlsConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The TLS layer without sockets or threads: a client engine stepped by hand on the far end of an in-memory socket
 * that takes writes in small pieces, so every partial write, buffer overflow and underflow is exercised. Every test
 * ends with the record pool's buffers all back.
 */
class TlsChannelTest {

    private final ServerTls server = ServerTls.start(TlsConfig.of(TestContexts.localhost()),
            List.of(ServerTls.HTTP_1_1), 16);

    @AfterEach
    void everyBufferIsBack() {
        assertThat(server.pool().leased()).as("record buffers still leased").isZero();
    }

    @Test
    void completesAHandshakeAndMovesDataBothWays() throws IOException {
        MemorySocket socket = new MemorySocket(1000, 1 << 20);
        TlsChannel channel = server.newChannel(socket);
        TlsClient client = new TlsClient(TestContexts.client(), socket, "localhost", "TLSv1.3");
        handshake(client, channel);
        assertThat(channel.details().protocol()).isEqualTo("TLSv1.3");
        assertThat(channel.details().serverName()).isEqualTo("localhost");

        client.send("hello".getBytes(StandardCharsets.US_ASCII));
        client.step();
        ByteBuffer read = ByteBuffer.allocate(100);
        assertThat(channel.read(read)).isEqualTo(5);
        assertThat(new String(read.array(), 0, 5, StandardCharsets.US_ASCII)).isEqualTo("hello");
        assertThat(channel.read(read)).as("nothing more yet").isZero();

        channel.release();
    }

    @Test
    void sendsTheAlertOfAFailedHandshake() throws IOException {
        MemorySocket socket = new MemorySocket(1 << 20, 1 << 20);
        TlsChannel channel = server.newChannel(socket);
        TlsClient client = new TlsClient(TestContexts.client(), socket, "localhost", "TLSv1.3", "h2");
        assertThatThrownBy(() -> handshake(client, channel)).isInstanceOf(SSLException.class);
        assertThatThrownBy(client::step).isInstanceOf(SSLException.class)
                .hasMessageContaining("no_application_protocol");
        channel.release();
    }

    @Test
    void countsAWriteAsWrittenOnlyOnceItsRecordsAreAllOnTheSocket() throws IOException {
        MemorySocket socket = new MemorySocket(700, 4096);
        TlsChannel channel = server.newChannel(socket);
        TlsClient client = new TlsClient(TestContexts.client(), socket, "localhost", "TLSv1.3");
        handshake(client, channel);
        byte[] data = pattern(100_000);
        ByteBuffer src = ByteBuffer.wrap(data);
        int stalls = 0;
        while (src.hasRemaining()) {
            int before = src.position();
            int written = channel.write(src);
            assertThat(src.position() - before).isEqualTo(written);
            if (written == 0) {
                stalls++;
                client.step();
            }
        }
        client.step();
        assertThat(stalls).as("the small socket made writes stall").isPositive();
        assertThat(client.received().getBytes(StandardCharsets.ISO_8859_1)).isEqualTo(data);
        channel.release();
    }

    @Test
    void decryptsRecordsLargerThanTheReadersBufferAndSaysWhatIsLeft() throws IOException {
        MemorySocket socket = new MemorySocket(1 << 20, 1 << 20);
        TlsChannel channel = server.newChannel(socket);
        TlsClient client = new TlsClient(TestContexts.client(), socket, "localhost", "TLSv1.3");
        handshake(client, channel);
        byte[] data = pattern(40_000);
        client.send(data);
        client.step();
        ByteBuffer all = ByteBuffer.allocate(data.length);
        ByteBuffer small = ByteBuffer.allocate(1000);
        assertThat(channel.read(small)).isEqualTo(1000);
        all.put(small.flip());
        assertThat(channel.hasBufferedInput()).as("the rest of the record, and whole ones read ahead").isTrue();
        while (all.hasRemaining()) {
            assertThat(channel.read(small.clear())).isPositive();
            all.put(small.flip());
        }
        assertThat(all.array()).isEqualTo(data);
        assertThat(channel.hasBufferedInput()).isFalse();
        assertThat(channel.read(small.clear())).isZero();
        channel.release();
    }

    @Test
    void refusesATls12Renegotiation() throws IOException {
        MemorySocket socket = new MemorySocket(1 << 20, 1 << 20);
        TlsChannel channel = server.newChannel(socket);
        TlsClient client = new TlsClient(TestContexts.client(), socket, "localhost", "TLSv1.2");
        handshake(client, channel);
        client.engine().beginHandshake();
        client.step();
        assertThatThrownBy(() -> channel.read(ByteBuffer.allocate(100))).isInstanceOf(SSLException.class)
                .hasMessageContaining("Refused a new handshake");
        channel.release();
    }

    @Test
    void answersATls13KeyUpdateAndCarriesOn() throws IOException {
        MemorySocket socket = new MemorySocket(1 << 20, 1 << 20);
        TlsChannel channel = server.newChannel(socket);
        TlsClient client = new TlsClient(TestContexts.client(), socket, "localhost", "TLSv1.3");
        handshake(client, channel);
        client.engine().beginHandshake();
        client.send("after".getBytes(StandardCharsets.US_ASCII));
        client.step();
        ByteBuffer read = ByteBuffer.allocate(100);
        assertThat(channel.read(read)).isEqualTo(5);
        channel.write(ByteBuffer.wrap("reply".getBytes(StandardCharsets.US_ASCII)));
        client.step();
        assertThat(client.received()).isEqualTo("reply");
        channel.release();
    }

    @Test
    void endsTheStreamAtCloseNotifyAndSendsItsOwn() throws IOException {
        MemorySocket socket = new MemorySocket(1 << 20, 1 << 20);
        TlsChannel channel = server.newChannel(socket);
        TlsClient client = new TlsClient(TestContexts.client(), socket, "localhost", "TLSv1.3");
        handshake(client, channel);
        channel.closeOutbound();
        client.step();
        assertThat(client.engine().isInboundDone()).as("the client saw close_notify").isTrue();
        client.engine().closeOutbound();
        client.step();
        assertThat(channel.read(ByteBuffer.allocate(100))).isEqualTo(-1);
        channel.release();
    }

    @Test
    void tellsPlaintextAndGarbageFromAClientHello() throws IOException {
        TlsChannel http = server.newChannel(sending("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
        assertThat(http.handshake()).isEqualTo(HandshakeStep.PLAINTEXT_HTTP);
        http.release();
        TlsChannel garbage = server.newChannel(sending("\u0000\u0001"));
        assertThat(garbage.handshake()).isEqualTo(HandshakeStep.NOT_TLS);
        garbage.release();
        MemorySocket halfHello = sending("\u0016\u0003\u0001\u0002\u0000\u0001");
        TlsChannel truncated = server.newChannel(halfHello);
        assertThat(truncated.handshake()).as("waits for the rest").isEqualTo(HandshakeStep.READ);
        halfHello.clientCloses();
        assertThatThrownBy(truncated::handshake).isInstanceOf(java.io.EOFException.class);
        truncated.release();
    }

    @Test
    void failsReadsAndWritesOnceReleased() throws IOException {
        MemorySocket socket = new MemorySocket(1 << 20, 1 << 20);
        TlsChannel channel = server.newChannel(socket);
        TlsClient client = new TlsClient(TestContexts.client(), socket, "localhost", "TLSv1.3");
        handshake(client, channel);
        channel.release();
        assertThatThrownBy(() -> channel.read(ByteBuffer.allocate(10)))
                .isInstanceOf(java.nio.channels.ClosedChannelException.class);
        assertThatThrownBy(() -> channel.write(ByteBuffer.allocate(10)))
                .isInstanceOf(java.nio.channels.ClosedChannelException.class);
        assertThat(channel.isOpen()).isFalse();
    }

    private static MemorySocket sending(String text) {
        MemorySocket socket = new MemorySocket(1 << 20, 1 << 20);
        socket.clientSends(ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1)));
        return socket;
    }

    private static byte[] pattern(int size) {
        byte[] data = new byte[size];
        for (int i = 0; i < size; i++) {
            data[i] = (byte) (i * 31 + i / 256);
        }
        return data;
    }

    /** Steps both sides until both are done; the server's tasks run inline. */
    static void handshake(TlsClient client, TlsChannel channel) throws IOException {
        for (int i = 0; i < 100; i++) {
            client.step();
            HandshakeStep step = channel.handshake();
            if (step == HandshakeStep.TASKS) {
                channel.runDelegatedTasks();
            } else if (step == HandshakeStep.DONE) {
                client.step();
                if (!client.handshaking()) {
                    return;
                }
            }
        }
        throw new AssertionError("The handshake did not complete");
    }
}
