package io.sprout.engine.tls;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Reads the first record a client sends to a TLS port without consuming it (RFC 8446 §4.1.2, RFC 5246 §7.4.1.2,
 * RFC 6066 §3): is it TLS at all, and which host name does its ClientHello ask for? The answer chooses the
 * certificate before any {@link javax.net.ssl.SSLEngine} exists, and the same bytes are then handed to that engine.
 *
 * <p>Pure and fuzz-safe: every length is checked against the bytes present, nothing is allocated but the name, and
 * no input makes it throw. Only a ClientHello that fits its first record is read (every real one does: a record
 * holds 16 KiB); one that spans records is reported without a name, so it gets the default certificate. Everything
 * else about the ClientHello is the engine's to judge.
 */
final class ClientHelloParser {

    private static final int HANDSHAKE_RECORD = 22;
    private static final int CLIENT_HELLO = 1;
    private static final int SERVER_NAME_EXTENSION = 0;
    private static final int HOST_NAME = 0;
    private static final int RECORD_HEADER = 5;
    private static final int MAX_RECORD_PAYLOAD = 1 << 14;
    private static final int MAX_HOST_NAME = 255;

    private ClientHelloParser() {
    }

    /** Examines the bytes of {@code in} from its position to its limit; neither changes. */
    static FirstBytes parse(ByteBuffer in) {
        int start = in.position();
        int available = in.remaining();
        if (available == 0) {
            return FirstBytes.INCOMPLETE;
        }
        int type = in.get(start) & 0xff;
        if (type != HANDSHAKE_RECORD) {
            return new FirstBytes.Plaintext(isLetter(type));
        }
        if (available > 1 && in.get(start + 1) != 3) {
            return new FirstBytes.Malformed("record version " + (in.get(start + 1) & 0xff) + ".x is not TLS");
        }
        if (available < RECORD_HEADER) {
            return FirstBytes.INCOMPLETE;
        }
        int length = uint16(in, start + 3);
        if (length < 4 || length > MAX_RECORD_PAYLOAD) {
            return new FirstBytes.Malformed("handshake record of " + length + " bytes");
        }
        if (available < RECORD_HEADER + length) {
            return FirstBytes.INCOMPLETE;
        }
        return clientHello(in, start + RECORD_HEADER, start + RECORD_HEADER + length);
    }

    /** The handshake message in {@code [from, to)}, the first record's payload. */
    private static FirstBytes clientHello(ByteBuffer in, int from, int to) {
        if ((in.get(from) & 0xff) != CLIENT_HELLO) {
            return new FirstBytes.Malformed("first handshake message is not a ClientHello");
        }
        int bodyEnd = from + 4 + uint24(in, from + 1);
        if (bodyEnd > to) {
            return new FirstBytes.ClientHello(null);
        }
        FieldCursor cursor = new FieldCursor(in, from + 4, bodyEnd);
        cursor.skip(2 + 32);
        cursor.skip(cursor.uint8());
        cursor.skip(cursor.uint16());
        cursor.skip(cursor.uint8());
        if (cursor.failed()) {
            return new FirstBytes.Malformed("ClientHello shorter than its fixed fields");
        }
        if (cursor.atEnd()) {
            return new FirstBytes.ClientHello(null);
        }
        int extensionsEnd = cursor.position() + 2 + cursor.uint16();
        if (cursor.failed() || extensionsEnd != bodyEnd) {
            return new FirstBytes.Malformed("extensions do not fill the ClientHello");
        }
        while (!cursor.atEnd()) {
            int extension = cursor.uint16();
            int extensionLength = cursor.uint16();
            if (cursor.failed() || cursor.position() + extensionLength > bodyEnd) {
                return new FirstBytes.Malformed("extension longer than the ClientHello");
            }
            if (extension == SERVER_NAME_EXTENSION) {
                return serverName(new FieldCursor(in, cursor.position(), cursor.position() + extensionLength));
            }
            cursor.skip(extensionLength);
        }
        return new FirstBytes.ClientHello(null);
    }

    /** The server_name extension's data: a list of names, of which the host name counts. */
    private static FirstBytes serverName(FieldCursor cursor) {
        int listEnd = cursor.position() + 2 + cursor.uint16();
        if (cursor.failed() || listEnd != cursor.end()) {
            return new FirstBytes.Malformed("server_name list does not fill its extension");
        }
        while (!cursor.atEnd()) {
            int nameType = cursor.uint8();
            int nameLength = cursor.uint16();
            if (cursor.failed() || cursor.position() + nameLength > listEnd) {
                return new FirstBytes.Malformed("server name longer than its list");
            }
            if (nameType == HOST_NAME) {
                return hostName(cursor, nameLength);
            }
            cursor.skip(nameLength);
        }
        return new FirstBytes.ClientHello(null);
    }

    private static FirstBytes hostName(FieldCursor cursor, int length) {
        if (length == 0 || length > MAX_HOST_NAME) {
            return new FirstBytes.Malformed("host name of " + length + " bytes");
        }
        byte[] name = new byte[length];
        for (int i = 0; i < length; i++) {
            int b = cursor.uint8();
            if (b <= 0x20 || b >= 0x7f) {
                return new FirstBytes.Malformed("host name byte 0x" + Integer.toHexString(b));
            }
            name[i] = (byte) b;
        }
        return new FirstBytes.ClientHello(new String(name, StandardCharsets.US_ASCII).toLowerCase(Locale.ROOT));
    }

    private static boolean isLetter(int b) {
        return (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z');
    }

    private static int uint16(ByteBuffer in, int at) {
        return (in.get(at) & 0xff) << 8 | in.get(at + 1) & 0xff;
    }

    private static int uint24(ByteBuffer in, int at) {
        return (in.get(at) & 0xff) << 16 | uint16(in, at + 1);
    }
}
