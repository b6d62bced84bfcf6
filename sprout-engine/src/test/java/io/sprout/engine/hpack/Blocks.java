package io.sprout.engine.hpack;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** Test helpers: header blocks from hex, decoded fields as "name: value" lines, dynamic tables as the same. */
final class Blocks {

    private Blocks() {
    }

    /** The octets of an RFC-style hex dump; spaces are ignored. */
    static ByteBuffer hex(String dump) {
        return ByteBuffer.wrap(HexFormat.of().parseHex(dump.replace(" ", "")));
    }

    /** Decodes a block and returns its fields; fails the test when the block does not decode whole. */
    static List<String> decode(HpackDecoder decoder, ByteBuffer block) throws Exception {
        List<String> fields = new ArrayList<>();
        decoder.decode(block, (name, value) -> fields.add(name + ": " + value));
        if (block.hasRemaining()) {
            throw new AssertionError("decoder left " + block.remaining() + " octets");
        }
        return fields;
    }

    /** The table's entries, newest first, as "name: value" lines. */
    static List<String> entries(DynamicTable table) {
        List<String> entries = new ArrayList<>();
        for (int index = 1; index <= table.length(); index++) {
            entries.add(table.name(index) + ": " + table.value(index));
        }
        return entries;
    }
}
