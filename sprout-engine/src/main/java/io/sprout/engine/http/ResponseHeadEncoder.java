package io.sprout.engine.http;

import java.util.Arrays;

/**
 * Encodes a status line and header fields into bytes. One encoder serves one connection and reuses its array,
 * so writing a head allocates nothing; a connection that idles gives the array up ({@link #trim}) and the next
 * head makes it anew. Not thread-safe.
 *
 * <p>Field names and values are written as ISO-8859-1; a CR or LF in either is replaced by a space so a handler
 * can never split the response.
 *
 * <p>Public because exchange ({@code Http1ResponseWire}, {@code ErrorResponses}, {@code HttpConnection}) encodes status
 * lines and fields with it.
 */
public final class ResponseHeadEncoder {

    private static final int INITIAL_CAPACITY = 512;

    private byte[] bytes;
    private int length;

    /** Starts a new head with its status line. */
    public ResponseHeadEncoder start(HttpVersion version, int status) {
        begin();
        appendAscii(version.text());
        append((byte) ' ');
        appendStatus(status);
        append((byte) ' ');
        appendText(ReasonPhrases.of(status));
        appendCrlf();
        return this;
    }

    /**
     * Starts the end of a chunked body: the last chunk's size line, which trailer fields then follow (RFC 9112
     * §7.1.2).
     */
    public ResponseHeadEncoder startLastChunk() {
        begin();
        appendAscii("0");
        appendCrlf();
        return this;
    }

    public ResponseHeadEncoder field(String name, String value) {
        appendName(name);
        appendText(value);
        appendCrlf();
        return this;
    }

    public ResponseHeadEncoder field(String name, long value) {
        appendName(name);
        appendDecimal(value);
        appendCrlf();
        return this;
    }

    /** Ends the head with the empty line. */
    public ResponseHeadEncoder end() {
        appendCrlf();
        return this;
    }

    public byte[] bytes() {
        return bytes;
    }

    /**
     * Gives up the array between heads: a connection idle for long needs no scratch space, and ten thousand idle
     * keep-alive connections would otherwise hold five megabytes of it.
     */
    public void trim() {
        bytes = null;
        length = 0;
    }

    public int length() {
        return length;
    }

    private void begin() {
        length = 0;
        if (bytes == null) {
            bytes = new byte[INITIAL_CAPACITY];
        }
    }

    private void appendStatus(int status) {
        ensure(3);
        bytes[length++] = (byte) ('0' + status / 100);
        bytes[length++] = (byte) ('0' + status / 10 % 10);
        bytes[length++] = (byte) ('0' + status % 10);
    }

    private void appendName(String name) {
        appendText(name);
        append((byte) ':');
        append((byte) ' ');
    }

    /** The digits straight into the array: {@code Long.toString} was a string for every response's length. */
    private void appendDecimal(long value) {
        if (value < 0) {
            appendAscii(Long.toString(value));
            return;
        }
        int digits = 1;
        for (long rest = value / 10; rest != 0; rest /= 10) {
            digits++;
        }
        ensure(digits);
        long rest = value;
        for (int i = length + digits - 1; i >= length; i--) {
            bytes[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        length += digits;
    }

    private void appendAscii(String text) {
        ensure(text.length());
        for (int i = 0; i < text.length(); i++) {
            bytes[length++] = (byte) text.charAt(i);
        }
    }

    private void appendText(String text) {
        ensure(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            bytes[length++] = c == '\r' || c == '\n' || c > 0xff ? (byte) (c > 0xff ? '?' : ' ') : (byte) c;
        }
    }

    private void appendCrlf() {
        ensure(2);
        bytes[length++] = '\r';
        bytes[length++] = '\n';
    }

    private void append(byte b) {
        ensure(1);
        bytes[length++] = b;
    }

    private void ensure(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(length + more, bytes.length * 2));
        }
    }
}
