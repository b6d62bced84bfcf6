package io.sprout.engine.hpack;

import java.nio.ByteBuffer;

/**
 * Decodes header blocks (RFC 7541 §3, §6) into fields, keeping the dynamic table that the peer's encoder fills.
 * One decoder per connection, fed its blocks in the order they arrive, on one thread at a time; it never blocks.
 *
 * <p>Any malformed representation is an {@link HpackException}: an integer over {@link Integer#MAX_VALUE}, index 0
 * or one past the tables, a dynamic table size update above the advertised {@code maxTableSize} or after a field,
 * a string longer than the rest of the block, and a Huffman string with EOS or bad padding.
 *
 * <p>The decoded list's size (name and value octets plus 32 per field, RFC 9113 §6.5.2) is counted as the block is
 * read, and fields stop being delivered once it passes {@code maxHeaderListSize}; the rest of the block is still
 * processed so that the dynamic table stays in step with the peer's, and {@link HeaderListTooLargeException} follows
 * at its end. A block that references one large entry thousands of times (the "HPACK bomb", CVE-2016-6581) thus
 * costs one table lookup per octet and no copies: indexed fields are the table's own strings, and a literal becomes
 * a {@code String} only when it is delivered or fits in the table.
 *
 * <p>Public because exchange's HTTP/2 session decodes every request's header block with it.
 */
public final class HpackDecoder {

    private static final int INDEXED = 0x80;
    private static final int INCREMENTAL = 0x40;
    private static final int SIZE_UPDATE = 0x20;
    private static final int HTTP2_INITIAL_TABLE_SIZE = 4096;

    private final int maxTableSize;
    private final int maxHeaderListSize;
    private final DynamicTable table;
    private final StringLiteral name;
    private final StringLiteral value;

    private FieldSink sink;
    private long listSize;

    /**
     * The table starts at the smaller of {@code maxTableSize} and 4096. A peer assumes HTTP/2's initial 4096 until it
     * signals otherwise, so a larger table would keep entries the peer has evicted; a smaller one is what the peer
     * must use once it has our SETTINGS, which the session sends before it reads any header block (RFC 7541 Appendix
     * C.5 decodes its first block with the advertised 256 in the same way).
     *
     * @param maxTableSize the SETTINGS_HEADER_TABLE_SIZE this server advertises: the ceiling for the peer's dynamic
     *     table size updates
     * @param maxHeaderListSize the bound on the decoded list's size (RFC 9113 §6.5.2)
     */
    public HpackDecoder(int maxTableSize, int maxHeaderListSize) {
        if (maxTableSize < 0 || maxHeaderListSize < 0) {
            throw new IllegalArgumentException("maxTableSize " + maxTableSize + " and maxHeaderListSize "
                    + maxHeaderListSize + " must not be negative");
        }
        this.maxTableSize = maxTableSize;
        this.maxHeaderListSize = maxHeaderListSize;
        this.table = new DynamicTable(Math.min(maxTableSize, HTTP2_INITIAL_TABLE_SIZE));
        // A longer string could be neither delivered (the list would be too large) nor inserted (it would empty the
        // table): it need only be counted.
        int keepLimit = Math.max(maxTableSize, maxHeaderListSize);
        this.name = new StringLiteral(keepLimit);
        this.value = new StringLiteral(keepLimit);
    }

    /**
     * Decodes one complete header block (a HEADERS frame's fragment and its CONTINUATION fragments, joined by the
     * caller) from the buffer's position to its limit, and leaves the position at the limit.
     *
     * @throws HpackException when the block is malformed; the connection must end (COMPRESSION_ERROR)
     * @throws HeaderListTooLargeException when the decoded list passed {@code maxHeaderListSize}; the block was
     *     processed to its end and only the stream need end
     */
    public void decode(ByteBuffer block, FieldSink sink) throws HpackException, HeaderListTooLargeException {
        this.sink = sink;
        this.listSize = 0;
        try {
            boolean fieldSeen = false;
            while (block.hasRemaining()) {
                int first = block.get() & 0xFF;
                if ((first & INDEXED) != 0) {
                    indexed(PrefixInteger.decode(first, 7, block));
                } else if ((first & INCREMENTAL) != 0) {
                    literal(first, 6, block, true);
                } else if ((first & SIZE_UPDATE) != 0) {
                    if (fieldSeen) {
                        throw new HpackException("dynamic table size update after a field (RFC 7541 §4.2)");
                    }
                    sizeUpdate(PrefixInteger.decode(first, 5, block));
                    continue;
                } else {
                    // Without indexing (0000) and never indexed (0001) decode alike; a server forwards nothing.
                    literal(first, 4, block, false);
                }
                fieldSeen = true;
            }
        } finally {
            this.sink = null;
        }
        if (listSize > maxHeaderListSize) {
            throw new HeaderListTooLargeException(listSize, maxHeaderListSize);
        }
    }

    /** The dynamic table, for tests that follow its state. */
    DynamicTable table() {
        return table;
    }

    private void indexed(int index) throws HpackException {
        String fieldName = entryName(index);
        String fieldValue = index <= StaticTable.LENGTH ? StaticTable.value(index)
                : table.value(index - StaticTable.LENGTH);
        if (counted(fieldName.length(), fieldValue.length())) {
            sink.field(fieldName, fieldValue);
        }
    }

    private void literal(int first, int prefixBits, ByteBuffer block, boolean indexing) throws HpackException {
        int nameIndex = PrefixInteger.decode(first, prefixBits, block);
        String fieldName = null;
        long nameLength;
        if (nameIndex != 0) {
            fieldName = entryName(nameIndex);
            nameLength = fieldName.length();
        } else {
            name.read(block);
            nameLength = name.length();
        }
        value.read(block);
        boolean deliver = counted(nameLength, value.length());
        boolean fits = DynamicTable.entrySize(nameLength, value.length()) <= table.maxSize();
        if (indexing && !fits) {
            // An entry larger than the table empties it (§4.4); its strings need not be built for that.
            table.clear();
        }
        boolean insert = indexing && fits;
        if (!deliver && !insert) {
            return;
        }
        if (fieldName == null) {
            fieldName = name.text();
        }
        String fieldValue = value.text();
        if (deliver) {
            sink.field(fieldName, fieldValue);
        }
        if (insert) {
            table.add(fieldName, fieldValue);
        }
    }

    private void sizeUpdate(int size) throws HpackException {
        if (size > maxTableSize) {
            throw new HpackException("dynamic table size update to " + size + " exceeds the advertised "
                    + maxTableSize);
        }
        table.maxSize(size);
    }

    /** Adds a field to the list's size and says whether it is still within the limit, so the field is delivered. */
    private boolean counted(long nameLength, long valueLength) {
        listSize += DynamicTable.entrySize(nameLength, valueLength);
        return listSize <= maxHeaderListSize;
    }

    private String entryName(int index) throws HpackException {
        if (index == 0) {
            throw new HpackException("index 0");
        }
        if (index <= StaticTable.LENGTH) {
            return StaticTable.name(index);
        }
        if (index - StaticTable.LENGTH > table.length()) {
            throw new HpackException("index " + index + " beyond the static and dynamic tables ("
                    + (StaticTable.LENGTH + table.length()) + " entries)");
        }
        return table.name(index - StaticTable.LENGTH);
    }
}
