package io.sprout.engine.contract;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A hand-made WebSocket client on a raw socket, for what the JDK's client will not do: broken frames, compression,
 * vanishing mid-frame. Reads the server's (unmasked) frames one at a time.
 */
final class WebSocketPeer implements AutoCloseable {

    /** One server frame. */
    record Frame(int opcode, boolean fin, boolean compressed, byte[] payload) {

        int closeCode() {
            return payload.length < 2 ? 1005 : ByteBuffer.wrap(payload).getShort() & 0xFFFF;
        }

        String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private WebSocketPeer(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** Connects and sends a handshake for {@code path} with {@code extraHeaders} (each ending in CRLF). */
    static WebSocketPeer handshake(int port, String path, String extraHeaders) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(20_000);
        WebSocketPeer peer = new WebSocketPeer(socket);
        peer.send(("GET " + path + " HTTP/1.1\r\nHost: test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" + extraHeaders + "\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        return peer;
    }

    /** The response head, up to and including the blank line. */
    String head() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    WebSocketPeer send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    Frame frame() throws IOException {
        int first = in.read();
        int second = in.read();
        if (first < 0 || second < 0) {
            throw new IOException("The server closed the connection");
        }
        long length = second & 0x7F;
        if (length == 126) {
            length = ByteBuffer.wrap(in.readNBytes(2)).getShort() & 0xFFFF;
        } else if (length == 127) {
            length = ByteBuffer.wrap(in.readNBytes(8)).getLong();
        }
        byte[] payload = in.readNBytes((int) length);
        return new Frame(first & 0xF, (first & 0x80) != 0, (first & 0x40) != 0, payload);
    }

    /** Whether the server closed the TCP connection: the next read sees its end (or a reset). */
    boolean closedByServer() {
        try {
            return in.read() < 0;
        } catch (IOException reset) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
