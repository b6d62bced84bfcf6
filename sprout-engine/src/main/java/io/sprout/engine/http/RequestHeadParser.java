package io.sprout.engine.http;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A strict, resumable parser of request heads (RFC 9112 §2–5). Feed it whatever bytes have arrived; it returns
 * the head once its empty line is seen and leaves any following bytes (a body, a pipelined request) in the
 * buffer.
 *
 * <p>Lines are processed as they complete, so the parser holds one line at a time, in an array that grows only
 * as far as the limits allow and that an idle connection gives up ({@link #trim}). Every violation throws
 * {@link HttpException} with the status to answer: 400 for malformed syntax (bare CR or LF, obs-fold, whitespace
 * before a colon, control bytes in a value, non-token names), 414 for a long request line, 431 for a large or
 * crowded header section, 505 for any version other than HTTP/1.0 and HTTP/1.1. One parser serves one connection,
 * one request after another; not thread-safe, though it may move between threads with a happens-before hand-off.
 *
 * <p>Public because exchange's {@code HttpConnection} owns one per connection and feeds it bytes: the codec holds no
 * socket.
 */
public final class RequestHeadParser {

    /** The reason of the 400 for a request line whose version is not {@code HTTP/d.d}. */
    public static final String MALFORMED_VERSION = "Malformed HTTP version";

    private static final int MAX_LEADING_EMPTY_LINES = 8;
    private static final int TARGET_SLOT = 0;
    private static final int INITIAL_LINE_CAPACITY = 256;

    private final ParserLimits limits;
    private final RecentStrings recent;
    /** The line so far; {@code null} after {@link #trim} until the next head's first byte. */
    private byte[] line;
    private int lineLength;
    private boolean sawCR;
    private boolean requestLineDone;
    private int headerSectionBytes;
    private int leadingEmptyLines;
    private long bytesSeen;
    private String method;
    private String target;
    private HttpVersion version;
    private HeaderFields fields;

    public RequestHeadParser(ParserLimits limits) {
        this.limits = limits;
        this.recent = new RecentStrings(1 + Math.min(limits.maxHeaderCount(), 32));
    }

    /**
     * Consumes bytes from {@code in} up to the end of one head.
     *
     * @return the head, or {@code null} when more bytes are needed (all of {@code in} was consumed)
     * @throws HttpException when the bytes cannot be the start of a valid head
     */
    public RequestHead parse(ByteBuffer in) {
        if (!in.hasArray()) {
            return parseDirect(in);
        }
        byte[] bytes = in.array();
        int start = in.arrayOffset() + in.position();
        int end = in.arrayOffset() + in.limit();
        int at = start;
        while (at < end) {
            byte b = bytes[at];
            if (sawCR || b == '\r' || b == '\n') {
                at++;
                bytesSeen++;
                RequestHead head = control(b);
                if (head != null) {
                    in.position(at - in.arrayOffset());
                    return head;
                }
            } else {
                int run = at + 1;
                while (run < end && bytes[run] != '\r' && bytes[run] != '\n') {
                    run++;
                }
                append(bytes, at, run - at);
                bytesSeen += run - at;
                at = run;
            }
        }
        in.position(at - in.arrayOffset());
        return null;
    }

    /** Whether bytes of a head have arrived but not the whole head (a request is under way). */
    public boolean inProgress() {
        return bytesSeen > 0;
    }

    /**
     * Between heads, gives up the line array (the next head makes it anew): an idle connection needs no scratch
     * space. Keeps it while a head is in progress.
     */
    public void trim() {
        if (!inProgress()) {
            line = null;
        }
    }

    /** Forgets any partial head, ready for a new one. */
    public void reset() {
        lineLength = 0;
        sawCR = false;
        requestLineDone = false;
        headerSectionBytes = 0;
        leadingEmptyLines = 0;
        bytesSeen = 0;
        method = null;
        target = null;
        version = null;
        fields = null;
    }

    private RequestHead parseDirect(ByteBuffer in) {
        while (in.hasRemaining()) {
            byte b = in.get();
            bytesSeen++;
            if (sawCR || b == '\r' || b == '\n') {
                RequestHead head = control(b);
                if (head != null) {
                    return head;
                }
            } else {
                append(new byte[] {b}, 0, 1);
            }
        }
        return null;
    }

    /** Handles CR, LF and the byte after a CR. */
    private RequestHead control(byte b) {
        if (lineLength > 0) {
            // A field line's CRLF counts toward the header section; the empty line that ends the head does not.
            countHeaderSection(1);
        }
        if (sawCR) {
            if (b != '\n') {
                throw HttpException.badRequest("CR not followed by LF");
            }
            sawCR = false;
            return endOfLine();
        }
        if (b == '\n') {
            throw HttpException.badRequest("LF without CR");
        }
        sawCR = true;
        return null;
    }

    private void append(byte[] bytes, int offset, int length) {
        int newLength = lineLength + length;
        if (requestLineDone) {
            countHeaderSection(length);
        } else if (lineLength == 0 && !Tokens.isTokenChar(bytes[offset])) {
            // Judged at once rather than at the line's end: a TLS ClientHello sent to a plaintext port starts with
            // 0x16 and may hold no CR or LF at all, and its client waits for an answer that would otherwise come
            // only with the head deadline.
            throw HttpException.badRequest("Invalid character in method");
        } else if (newLength > limits.maxRequestLineLength()) {
            throw new HttpException(414, "Request line longer than " + limits.maxRequestLineLength() + " bytes");
        }
        if (line == null) {
            line = new byte[Math.max(newLength, INITIAL_LINE_CAPACITY)];
        } else if (newLength > line.length) {
            line = Arrays.copyOf(line, Math.max(newLength, line.length * 2));
        }
        System.arraycopy(bytes, offset, line, lineLength, length);
        lineLength = newLength;
    }

    private void countHeaderSection(int length) {
        if (requestLineDone) {
            headerSectionBytes += length;
            if (headerSectionBytes > limits.maxHeaderSectionSize()) {
                throw new HttpException(431,
                        "Header section larger than " + limits.maxHeaderSectionSize() + " bytes");
            }
        }
    }

    private RequestHead endOfLine() {
        int length = lineLength;
        lineLength = 0;
        if (!requestLineDone) {
            if (length == 0) {
                if (++leadingEmptyLines > MAX_LEADING_EMPTY_LINES) {
                    throw HttpException.badRequest("Too many empty lines before the request line");
                }
                return null;
            }
            parseRequestLine(length);
            requestLineDone = true;
            fields = new HeaderFields();
            return null;
        }
        if (length == 0) {
            RequestHead head = new RequestHead(method, target, version, fields);
            reset();
            return head;
        }
        if (fields.size() >= limits.maxHeaderCount()) {
            throw new HttpException(431, "More than " + limits.maxHeaderCount() + " header fields");
        }
        parseFieldLine(length);
        return null;
    }

    private void parseRequestLine(int length) {
        int methodEnd = indexOf(' ', 0, length);
        if (methodEnd <= 0) {
            throw HttpException.badRequest("Malformed request line");
        }
        for (int i = 0; i < methodEnd; i++) {
            if (!Tokens.isTokenChar(line[i])) {
                throw HttpException.badRequest("Invalid character in method");
            }
        }
        int targetEnd = indexOf(' ', methodEnd + 1, length);
        checkTarget(methodEnd + 1, targetEnd < 0 ? length : targetEnd);
        if (targetEnd < 0) {
            throw new HttpException(505, "HTTP/0.9 is not supported");
        }
        version = version(targetEnd + 1, length);
        method = Methods.of(line, 0, methodEnd);
        target = recent.decode(TARGET_SLOT, line, methodEnd + 1, targetEnd - methodEnd - 1);
    }

    private void checkTarget(int from, int to) {
        if (from >= to) {
            throw HttpException.badRequest("Empty request target");
        }
        for (int i = from; i < to; i++) {
            if (!Tokens.isTargetByte(line[i])) {
                throw HttpException.badRequest("Invalid character in request target");
            }
        }
    }

    private HttpVersion version(int from, int to) {
        int length = to - from;
        if (Ascii.equalsExact("HTTP/1.1", line, from, length)) {
            return HttpVersion.HTTP_1_1;
        }
        if (Ascii.equalsExact("HTTP/1.0", line, from, length)) {
            return HttpVersion.HTTP_1_0;
        }
        boolean wellFormed = length == 8 && Ascii.equalsExact("HTTP/", line, from, 5)
                && isDigit(line[from + 5]) && line[from + 6] == '.' && isDigit(line[from + 7]);
        if (wellFormed) {
            throw new HttpException(505, "HTTP version not supported");
        }
        throw HttpException.badRequest(MALFORMED_VERSION);
    }

    private void parseFieldLine(int length) {
        byte first = line[0];
        if (first == ' ' || first == '\t') {
            throw HttpException.badRequest("Obsolete line folding");
        }
        int colon = 0;
        while (colon < length && line[colon] != ':') {
            if (!Tokens.isTokenChar(line[colon])) {
                throw HttpException.badRequest("Invalid character in field name");
            }
            colon++;
        }
        if (colon == length || colon == 0) {
            throw HttpException.badRequest("Field line without a name and colon");
        }
        int valueStart = colon + 1;
        while (valueStart < length && Tokens.isWhitespace(line[valueStart])) {
            valueStart++;
        }
        int valueEnd = length;
        while (valueEnd > valueStart && Tokens.isWhitespace(line[valueEnd - 1])) {
            valueEnd--;
        }
        for (int i = valueStart; i < valueEnd; i++) {
            if (!Tokens.isFieldValueByte(line[i])) {
                throw HttpException.badRequest("Invalid character in field value");
            }
        }
        String name = HeaderNameCache.of(line, 0, colon);
        String value = recent.decode(1 + fields.size(), line, valueStart, valueEnd - valueStart);
        fields.add(name, value);
    }

    private int indexOf(char c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (line[i] == c) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }
}
