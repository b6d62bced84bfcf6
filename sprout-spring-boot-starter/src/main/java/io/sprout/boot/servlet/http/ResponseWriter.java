package io.sprout.boot.servlet.http;

import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;

/**
 * Encodes characters straight into the response buffer, so {@code resetBuffer()} and commit decisions see every
 * character written (an {@code OutputStreamWriter} would hide up to 8 KB in its own buffer). A surrogate pair
 * split across two writes is kept until its second half arrives.
 */
final class ResponseWriter extends Writer {

    private final ServletOutput body;
    private final CharsetEncoder encoder;
    private final ByteBuffer bytes = ByteBuffer.allocate(1024);
    private char pendingHighSurrogate;

    ResponseWriter(ServletOutput body, Charset charset) {
        this.body = body;
        this.encoder = charset.newEncoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
    }

    @Override
    public void write(char[] chars, int offset, int length) throws IOException {
        if (length == 0) {
            return;
        }
        CharBuffer input;
        if (pendingHighSurrogate != 0) {
            char[] joined = new char[length + 1];
            joined[0] = pendingHighSurrogate;
            System.arraycopy(chars, offset, joined, 1, length);
            pendingHighSurrogate = 0;
            input = CharBuffer.wrap(joined);
        } else {
            input = CharBuffer.wrap(chars, offset, length);
        }
        if (Character.isHighSurrogate(input.get(input.limit() - 1))) {
            pendingHighSurrogate = input.get(input.limit() - 1);
            input.limit(input.limit() - 1);
        }
        encode(input);
    }

    @Override
    public void write(String text, int offset, int length) throws IOException {
        write(text.toCharArray(), offset, length);
    }

    private void encode(CharBuffer input) throws IOException {
        while (true) {
            CoderResult result = encoder.encode(input, bytes, true);
            bytes.flip();
            body.write(bytes.array(), 0, bytes.limit());
            bytes.clear();
            if (!result.isOverflow()) {
                encoder.reset();
                return;
            }
        }
    }

    @Override
    public void flush() throws IOException {
        body.flush();
    }

    @Override
    public void close() throws IOException {
        body.close();
    }
}
