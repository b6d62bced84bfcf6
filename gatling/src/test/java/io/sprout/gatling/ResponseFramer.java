package io.sprout.gatling;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * Where one HTTP/1.1 response ends in the bytes a connection has read so far, and what {@link LaunchLoad} needs of
 * it: the status and whether the server closes the connection after it. Bodies framed by {@code Content-Length} or
 * chunked (without trailers) are understood; the bytes are never copied.
 */
final class ResponseFramer {

    /** One whole response: its status, its length in bytes (head and body), and whether the server will close. */
    record Response(int status, int length, boolean close) {
    }

    private ResponseFramer() {
    }

    /**
     * Reads what {@code channel} has into {@code in} and frames what {@code in} holds since its last clear.
     *
     * @return the response when it is whole, else {@code null} (read again when the channel is readable)
     * @throws IOException when the server closed the connection, or the head outgrew {@code in}
     */
    static Response readFrom(SocketChannel channel, ByteBuffer in) throws IOException {
        if (channel.read(in) < 0) {
            throw new IOException("closed by the server");
        }
        Response response = frame(in.array(), 0, in.position());
        if (response == null && !in.hasRemaining()) {
            throw new IOException("a response head larger than " + in.capacity() + " bytes");
        }
        return response;
    }

    /** The response at the start of {@code bytes[from, to)}, or null while it is incomplete. */
    static Response frame(byte[] bytes, int from, int to) {
        int headEnd = indexOf(bytes, from, to, "\r\n\r\n");
        if (headEnd < 0) {
            return null;
        }
        String head = new String(bytes, from, headEnd - from, StandardCharsets.ISO_8859_1);
        int status = Integer.parseInt(head.substring(9, 12));
        int contentLength = 0;
        boolean chunked = false;
        boolean close = false;
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = line.substring(0, colon).trim();
            String value = line.substring(colon + 1).trim().toLowerCase();
            if (name.equalsIgnoreCase("content-length")) {
                contentLength = Integer.parseInt(value);
            }
            else if (name.equalsIgnoreCase("transfer-encoding")) {
                chunked = value.contains("chunked");
            }
            else if (name.equalsIgnoreCase("connection")) {
                close = value.contains("close");
            }
        }
        int bodyStart = headEnd + 4;
        int end = chunked ? chunkedEnd(bytes, bodyStart, to) : bodyStart + contentLength;
        if (end < 0 || end > to) {
            return null;
        }
        return new Response(status, end - from, close);
    }

    /** The index just past a chunked body starting at {@code from}, or -1 while it is incomplete. */
    private static int chunkedEnd(byte[] bytes, int from, int to) {
        int position = from;
        while (true) {
            int lineEnd = indexOf(bytes, position, to, "\r\n");
            if (lineEnd < 0) {
                return -1;
            }
            String size = new String(bytes, position, lineEnd - position, StandardCharsets.ISO_8859_1);
            int semicolon = size.indexOf(';');
            int length = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
            // The last chunk is "0" CRLF CRLF (no trailers); any other chunk is its data and a CRLF.
            position = lineEnd + 2 + (length == 0 ? 2 : length + 2);
            if (length == 0 || position > to) {
                return position <= to ? position : -1;
            }
        }
    }

    private static int indexOf(byte[] bytes, int from, int to, String ascii) {
        outer:
        for (int i = from; i <= to - ascii.length(); i++) {
            for (int j = 0; j < ascii.length(); j++) {
                if (bytes[i + j] != ascii.charAt(j)) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

}
