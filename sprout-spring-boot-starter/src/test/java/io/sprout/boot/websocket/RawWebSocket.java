package io.sprout.boot.websocket;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WebSocket client over a plain socket, for frames no well-behaved client sends: it completes the handshake,
 * sends frames as given (masked, as a client must) and reads the server's Close.
 */
final class RawWebSocket implements AutoCloseable {

    private static final byte[] MASK = {0x11, 0x22, 0x33, 0x44};

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    private RawWebSocket(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    static RawWebSocket open(int port, String path) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(20_000);
        RawWebSocket client = new RawWebSocket(socket);
        client.out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        assertThat(client.head()).startsWith("HTTP/1.1 101");
        return client;
    }

    /** Sends one final frame of this opcode with a payload of at most 125 bytes. */
    void send(int opcode, byte[] payload) throws IOException {
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.write(0x80 | opcode);
        frame.write(0x80 | payload.length);
        frame.write(MASK);
        for (int i = 0; i < payload.length; i++) {
            frame.write(payload[i] ^ MASK[i & 3]);
        }
        out.write(frame.toByteArray());
        out.flush();
    }

    /** Reads frames until the server's Close and returns its code ({@code 1005} when it carries none). */
    int closeCode() throws IOException {
        while (true) {
            int first = in.readUnsignedByte();
            int length = in.readUnsignedByte() & 0x7F;
            if (length == 126) {
                length = in.readUnsignedShort();
            } else if (length == 127) {
                length = Math.toIntExact(in.readLong());
            }
            byte[] payload = in.readNBytes(length);
            if ((first & 0x0F) == 0x8) {
                return payload.length < 2 ? 1005 : (payload[0] & 0xFF) << 8 | payload[1] & 0xFF;
            }
        }
    }

    private String head() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            head.write(in.readUnsignedByte());
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
