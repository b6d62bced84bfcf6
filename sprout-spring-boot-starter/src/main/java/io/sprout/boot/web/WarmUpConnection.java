package io.sprout.boot.web;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * One keep-alive HTTP/1.1 connection of the warm-up: writes a GET and reads its answer over a plain socket.
 * <p>
 * Not the JDK's {@code HttpClient}: the warm-up is there to have the server's code compiled, and a general client's
 * code competes for the same JIT. With it, the client took 10 of the 45 s the JIT spent compiling during a 30 s
 * warm-up of the sample application (JFR's {@code jdk.Compilation} events), all of it code production never runs.
 * This reader knows only what a server may answer a GET: interim 1xx answers, a body framed by
 * {@code Content-Length}, by chunks, or by the end of the connection.
 */
final class WarmUpConnection implements Closeable {

    /** The warm-up's deadline came before the answer: the time limit's doing, not the server's. */
    static final class TimeLimitReached extends IOException {

        TimeLimitReached() {
            super("warm-up time limit reached");
        }
    }

    /**
     * Headers a warm-up request adds, taken in turn (see {@link WarmUpDriver}): none, as many API clients send, and
     * {@code Accept: *}{@code /*}, as curl and most HTTP libraries do. Each takes branches of its own through header
     * parsing and content negotiation; code compiled for one of them alone is thrown away and compiled again the
     * first time a client sends the other, with the server's ports open.
     */
    static final List<String> HEADER_VARIANTS = List.of("", "Accept: */*\r\n");

    /** Longer heads are refused: no application answers a warm-up GET with that many headers. */
    private static final int MAX_HEAD_BYTES = 64 * 1024;

    private final InetSocketAddress address;
    private final byte[] buffer = new byte[16 * 1024];
    private int position;
    private int limit;
    private Socket socket;
    private InputStream in;

    WarmUpConnection(InetSocketAddress address) {
        this.address = address;
    }

    /**
     * Sends {@code GET target} with {@code headers} (each line ending in CRLF) and reads the whole answer.
     *
     * @return the final status
     * @throws TimeLimitReached when the deadline passes first
     * @throws IOException when the connection breaks or the answer is not HTTP
     */
    int get(String target, String headers, long deadlineNanos) throws IOException {
        boolean fresh = socket == null;
        if (fresh) {
            open(deadlineNanos);
        }
        socket.setSoTimeout(millisLeft(deadlineNanos));
        byte[] request = ("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + address.getPort()
                + "\r\nUser-Agent: sprout-warm-up\r\n" + headers + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
        try {
            socket.getOutputStream().write(request);
            return readAnswer();
        } catch (SocketTimeoutException timedOut) {
            // Every socket time-out here is the time left before the deadline.
            close();
            throw new TimeLimitReached();
        } catch (EOFException closedBeforeAnswer) {
            close();
            // A keep-alive connection the server closed while idle: one retry on a new connection.
            if (fresh || limit != 0) {
                throw closedBeforeAnswer;
            }
            return get(target, headers, deadlineNanos);
        }
    }

    private void open(long deadlineNanos) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        try {
            socket.connect(address, millisLeft(deadlineNanos));
        } catch (SocketTimeoutException timedOut) {
            close();
            throw new TimeLimitReached();
        }
        in = socket.getInputStream();
        position = 0;
        limit = 0;
    }

    private static int millisLeft(long deadlineNanos) throws IOException {
        long millis = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
        if (millis <= 0) {
            throw new TimeLimitReached();
        }
        return (int) Math.min(Integer.MAX_VALUE, millis);
    }

    private int readAnswer() throws IOException {
        limit = position = 0;
        while (true) {
            String head = readHead();
            int status = status(head);
            if (status >= 100 && status < 200 && status != 101) {
                continue;
            }
            readBody(head, status);
            return status;
        }
    }

    private String readHead() throws IOException {
        StringBuilder head = new StringBuilder();
        int length;
        do {
            head.append((char) readByte());
            length = head.length();
            if (length > MAX_HEAD_BYTES) {
                throw new IOException("response head over " + MAX_HEAD_BYTES + " bytes");
            }
        } while (length < 4 || head.charAt(length - 1) != '\n' || head.charAt(length - 3) != '\n');
        return head.toString();
    }

    private static int status(String head) throws IOException {
        if (!head.startsWith("HTTP/1.") || head.length() < 12) {
            throw new IOException("not an HTTP/1.x response: " + head.lines().findFirst().orElse(""));
        }
        try {
            return Integer.parseInt(head, 9, 12, 10);
        } catch (NumberFormatException e) {
            throw new IOException("bad status line: " + head.lines().findFirst().orElse(""), e);
        }
    }

    private void readBody(String head, int status) throws IOException {
        String lower = head.toLowerCase(Locale.ROOT);
        boolean closes = lower.contains("\r\nconnection: close");
        if (status == 204 || status == 304) {
            // no body
        } else if (lower.contains("\r\ntransfer-encoding: chunked")) {
            readChunks();
        } else if (header(lower, "content-length") != null) {
            skip(number(header(lower, "content-length"), 10));
        } else {
            while (readByteOrEnd() >= 0) {
                // read to the end of the connection, the body's only framing here
            }
            closes = true;
        }
        if (closes) {
            close();
        }
    }

    private static String header(String lowerHead, String name) {
        int at = lowerHead.indexOf("\r\n" + name + ":");
        if (at < 0) {
            return null;
        }
        int start = at + name.length() + 3;
        return lowerHead.substring(start, lowerHead.indexOf("\r\n", start)).trim();
    }

    private static long number(String digits, int radix) throws IOException {
        try {
            long value = Long.parseLong(digits, radix);
            if (value < 0) {
                throw new IOException("negative length: " + digits);
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IOException("bad length: " + digits, e);
        }
    }

    private void readChunks() throws IOException {
        long size;
        do {
            String line = readLine();
            int extension = line.indexOf(';');
            size = number((extension < 0 ? line : line.substring(0, extension)).trim(), 16);
            skip(size);
            if (size > 0) {
                readLine();
            }
        } while (size > 0);
        while (!readLine().isEmpty()) {
            // trailer fields
        }
    }

    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = readByte(); b != '\n'; b = readByte()) {
            if (b != '\r') {
                line.append((char) b);
            }
            if (line.length() > MAX_HEAD_BYTES) {
                throw new IOException("chunk line over " + MAX_HEAD_BYTES + " bytes");
            }
        }
        return line.toString();
    }

    private void skip(long count) throws IOException {
        for (long left = count; left > 0; ) {
            if (position == limit && fill() < 0) {
                throw new EOFException("connection closed " + left + " bytes before the end of the body");
            }
            int taken = (int) Math.min(left, limit - position);
            position += taken;
            left -= taken;
        }
    }

    private int readByte() throws IOException {
        int b = readByteOrEnd();
        if (b < 0) {
            throw new EOFException("connection closed before the end of the answer");
        }
        return b;
    }

    private int readByteOrEnd() throws IOException {
        if (position == limit && fill() < 0) {
            return -1;
        }
        return buffer[position++] & 0xFF;
    }

    private int fill() throws IOException {
        int read = in.read(buffer, 0, buffer.length);
        if (read > 0) {
            position = 0;
            limit = read;
        }
        return read;
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // nothing was left to read or write
            }
            socket = null;
        }
    }
}
