package io.sprout.engine.hpack;

import java.util.Set;

/**
 * Encodes response heads into header blocks (RFC 7541 §6), keeping the dynamic table the peer's decoder mirrors.
 * One encoder per connection, used for one block at a time ({@link #start()}, then {@link #status} and
 * {@link #field}s, then {@link #bytes()}); blocks must reach the peer in the order they were encoded. Not
 * thread-safe; never blocks.
 *
 * <p>A field the static or dynamic table holds whole is sent as its index. Otherwise the name is indexed when a
 * table holds it, and the field is added to the dynamic table when it is likely to repeat on the connection: a name
 * from {@link #INDEXED_NAMES} with a value of at most {@value #MAX_INDEXED_VALUE} octets, or a {@code :status}
 * the static table lacks. {@code date} is among them: it changes once a second, but responses in the same second
 * then send it as one octet, and a literal with indexing costs no more octets than one without. Credentials
 * ({@link #SENSITIVE_NAMES}) are sent never-indexed (§7.1.3) so that no intermediary indexes them either; the rest
 * go without indexing. Strings are Huffman-coded when that is shorter.
 *
 * <p>Each char is sent as one octet: a char above 0xFF becomes {@code ?}, and CR, LF and NUL (which RFC 9113 §8.2.1
 * forbids in a field) become a space, so that a handler can never split a response on a hop that translates to
 * HTTP/1.1, as the HTTP/1.1 head encoder does. Names are lower-cased (ASCII) as RFC 9113 §8.2 requires.
 *
 * <p>Public because exchange's HTTP/2 session encodes every response head with it.
 */
public final class HpackEncoder {

    private static final int DEFAULT_TABLE_SIZE = 4096;
    private static final int MAX_INDEXED_VALUE = 256;
    private static final int INDEXED = 0x80;
    private static final int INCREMENTAL = 0x40;
    private static final int NEVER_INDEXED = 0x10;
    private static final int WITHOUT_INDEXING = 0x00;
    private static final int SIZE_UPDATE = 0x20;
    private static final String STATUS = ":status";

    /** Response fields whose values tend to repeat from response to response on one connection. */
    private static final Set<String> INDEXED_NAMES = Set.of("content-type", "server", "cache-control", "vary",
            "content-language", "content-encoding", "date", "accept-ranges", "access-control-allow-origin",
            "access-control-allow-credentials", "access-control-allow-headers", "access-control-allow-methods",
            "access-control-expose-headers", "strict-transport-security", "x-content-type-options",
            "x-frame-options", "referrer-policy", "content-security-policy", "alt-svc", "via");

    /** Fields that carry credentials: never in a table, here or at any hop. */
    private static final Set<String> SENSITIVE_NAMES = Set.of("set-cookie", "cookie", "authorization",
            "proxy-authorization", "www-authenticate", "proxy-authenticate");

    private final DynamicTable table = new DynamicTable(DEFAULT_TABLE_SIZE);
    private final BlockWriter out = new BlockWriter();
    private boolean sizeChanged;
    private int smallestSize;
    private int finalSize;

    /** Starts with the table size RFC 7541 and RFC 9113 assume until the peer's SETTINGS say otherwise, 4096. */
    public HpackEncoder() {
    }

    /**
     * The peer's SETTINGS_HEADER_TABLE_SIZE changed: from the next block on the table holds at most
     * {@code min(value, 4096)} octets (a larger table would cost this server memory per connection for little gain),
     * and that block begins with the dynamic table size update that tells the peer (RFC 7541 §4.2, §6.3). When the
     * size fell and rose again between two blocks, the smallest size is signalled first, then the final one. A
     * negative {@code value} is an unsigned setting above {@link Integer#MAX_VALUE}.
     */
    public void peerMaxTableSize(int value) {
        int size = value < 0 ? DEFAULT_TABLE_SIZE : Math.min(value, DEFAULT_TABLE_SIZE);
        smallestSize = sizeChanged ? Math.min(smallestSize, size) : size;
        finalSize = size;
        sizeChanged = true;
    }

    /** Begins a new block, discarding the previous one's octets. */
    public HpackEncoder start() {
        out.reset();
        if (sizeChanged) {
            if (smallestSize < finalSize) {
                sizeUpdate(smallestSize);
            }
            sizeUpdate(finalSize);
            sizeChanged = false;
        }
        return this;
    }

    /** Encodes {@code :status}: one octet for the seven codes in the static table, else a literal with name 8. */
    public HpackEncoder status(int status) {
        encode(STATUS, Integer.toString(status), true);
        return this;
    }

    /** Encodes one field; the name is lower-cased (ASCII). */
    public HpackEncoder field(String name, String value) {
        String fieldName = FieldText.lowerCase(name);
        String fieldValue = FieldText.octets(value);
        if (SENSITIVE_NAMES.contains(fieldName)) {
            literal(NEVER_INDEXED, 4, fieldName, fieldValue);
        } else {
            encode(fieldName, fieldValue,
                    INDEXED_NAMES.contains(fieldName) && fieldValue.length() <= MAX_INDEXED_VALUE);
        }
        return this;
    }

    /** The block's octets so far: {@code bytes()[0 .. length())}; the array is reused by the next block. */
    public byte[] bytes() {
        return out.octets();
    }

    public int length() {
        return out.length();
    }

    /** The dynamic table, for tests that compare it with a decoder's. */
    DynamicTable table() {
        return table;
    }

    private void encode(String name, String value, boolean indexing) {
        int index = StaticTable.indexOf(name, value);
        if (index == 0) {
            int dynamic = table.indexOf(name, value);
            index = dynamic == 0 ? 0 : StaticTable.LENGTH + dynamic;
        }
        if (index != 0) {
            out.integer(INDEXED, 7, index);
        } else if (indexing) {
            literal(INCREMENTAL, 6, name, value);
            table.add(name, value);
        } else {
            literal(WITHOUT_INDEXING, 4, name, value);
        }
    }

    private void literal(int flags, int prefixBits, String name, String value) {
        int nameIndex = StaticTable.indexOfName(name);
        if (nameIndex == 0) {
            int dynamic = table.indexOfName(name);
            nameIndex = dynamic == 0 ? 0 : StaticTable.LENGTH + dynamic;
        }
        out.integer(flags, prefixBits, nameIndex);
        if (nameIndex == 0) {
            out.string(name);
        }
        out.string(value);
    }

    private void sizeUpdate(int size) {
        table.maxSize(size);
        out.integer(SIZE_UPDATE, 5, size);
    }
}
