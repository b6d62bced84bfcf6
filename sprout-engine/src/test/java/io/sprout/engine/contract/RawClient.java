package io.sprout.engine.contract;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A test client on a plain socket: sends exact bytes, reads responses by their framing, sees closes. */
final class RawClient implements AutoCloseable {

    /** One response as read off the wire; header and trailer names lower-cased. */
    record Response(int status, Map<String, String> headers, byte[] body, Map<String, String> trailers) {

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RawClient(Socket socket) throws IOException {
        this.socket = socket;
        this.socket.setSoTimeout(20_000);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** A client over an already connected socket, such as a handshaken TLS one. */
    static RawClient over(Socket socket) {
        try {
            return new RawClient(socket);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static RawClient connect(int port) {
        try {
            return new RawClient(new Socket(InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    RawClient send(String text) {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    RawClient send(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Socket socket() {
        return socket;
    }

    InputStream input() {
        return in;
    }

    Response read() {
        return read(false);
    }

    /** Reads one response; {@code headRequest} means it has no body whatever its fields say. */
    Response read(boolean headRequest) {
        try {
            Response head = readHead();
            int status = head.status();
            Map<String, String> headers = head.headers();
            if (status < 200) {
                return head;
            }
            byte[] body;
            Map<String, String> trailers = new LinkedHashMap<>();
            if (headRequest || status == 204 || status == 304) {
                body = new byte[0];
            } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                body = chunked(trailers);
            } else if (headers.containsKey("content-length")) {
                body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
            } else {
                body = in.readAllBytes();
            }
            return new Response(status, headers, body, trailers);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads a response's status line and fields only, leaving its body (or, after a {@code 101}, the next
     * protocol's bytes) to be read from {@link #input()}.
     */
    Response readHead() {
        try {
            String statusLine = line();
            while (statusLine.isEmpty()) {
                statusLine = line();
            }
            int status = Integer.parseInt(statusLine.substring(9, 12));
            Map<String, String> headers = new LinkedHashMap<>();
            for (String line = line(); !line.isEmpty(); line = line()) {
                int colon = line.indexOf(':');
                headers.merge(line.substring(0, colon).toLowerCase(Locale.ROOT), line.substring(colon + 1).strip(),
                        (a, b) -> a + ", " + b);
            }
            return new Response(status, headers, new byte[0], Map.of());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads exactly {@code length} bytes (after a {@code 101}, say), as ISO-8859-1 text. */
    String readText(int length) {
        try {
            byte[] bytes = in.readNBytes(length);
            if (bytes.length < length) {
                throw new IOException("Connection closed after " + bytes.length + " of " + length + " bytes");
            }
            return new String(bytes, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether the server closed the connection: the next read sees end of stream (or a reset). */
    boolean closedByServer() {
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    /** Whether nothing at all arrives within the wait (the connection stays open and silent). */
    boolean silentFor(int millis) {
        try {
            socket.setSoTimeout(millis);
            int next = in.read();
            return false;
        } catch (SocketTimeoutException silent) {
            return true;
        } catch (IOException e) {
            return false;
        } finally {
            try {
                socket.setSoTimeout(20_000);
            } catch (IOException ignored) {
                // The socket is broken; the caller's next call will say so.
            }
        }
    }

    void shutdownOutput() {
        try {
            socket.shutdownOutput();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Closes abortively (a TCP reset, not a FIN), as a client that crashes or gives up does. */
    void reset() {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        close();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Closing a test socket that is already broken changes nothing.
        }
    }

    private byte[] chunked(Map<String, String> trailers) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = line();
            int semicolon = sizeLine.indexOf(';');
            int size = Integer.parseInt(semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon), 16);
            if (size == 0) {
                for (String line = line(); !line.isEmpty(); line = line()) {
                    int colon = line.indexOf(':');
                    trailers.put(line.substring(0, colon).toLowerCase(Locale.ROOT), line.substring(colon + 1).strip());
                }
                return body.toByteArray();
            }
            body.write(in.readNBytes(size));
            line();
        }
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("Connection closed mid-response after '" + line + "'");
            }
            if (b == '\n') {
                int length = line.length();
                if (length > 0 && line.charAt(length - 1) == '\r') {
                    line.setLength(length - 1);
                }
                return line.toString();
            }
            line.append((char) b);
        }
    }
}
