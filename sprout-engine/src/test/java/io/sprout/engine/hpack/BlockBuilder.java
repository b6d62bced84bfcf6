package io.sprout.engine.hpack;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Writes header blocks by hand for tests, including ones no sound encoder would write. */
final class BlockBuilder {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    BlockBuilder integer(int flags, int prefixBits, int value) {
        BlockWriter writer = new BlockWriter();
        writer.integer(flags, prefixBits, value);
        out.write(writer.octets(), 0, writer.length());
        return this;
    }

    BlockBuilder indexed(int index) {
        return integer(0x80, 7, index);
    }

    BlockBuilder sizeUpdate(int size) {
        return integer(0x20, 5, size);
    }

    /** A literal with incremental indexing and a literal name, both strings sent as plain octets. */
    BlockBuilder literalWithIndexing(String name, String value) {
        return integer(0x40, 6, 0).raw(name).raw(value);
    }

    /** A string literal as plain octets. */
    BlockBuilder raw(String text) {
        integer(0, 7, text.length());
        out.writeBytes(text.getBytes(StandardCharsets.ISO_8859_1));
        return this;
    }

    /** A string literal, Huffman-coded. */
    BlockBuilder huffman(String text) {
        byte[] code = new byte[(int) HuffmanEncoder.encodedLength(text)];
        HuffmanEncoder.encode(text, code, 0);
        integer(0x80, 7, code.length);
        out.writeBytes(code);
        return this;
    }

    BlockBuilder octets(int... octets) {
        for (int octet : octets) {
            out.write(octet);
        }
        return this;
    }

    ByteBuffer build() {
        return ByteBuffer.wrap(out.toByteArray());
    }
}
