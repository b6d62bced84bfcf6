package io.sprout.engine.exchange;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The header block an HTTP/2 connection is receiving: the fragments of a HEADERS frame and its CONTINUATION frames,
 * gathered for HPACK, never beyond {@code limit} bytes (RFC 9113 §6.10; the CONTINUATION floods of CVE-2024-27316
 * end at the limit instead of growing memory). Event loop only.
 */
final class HeaderBlock {

    /** A larger array than this is not kept between blocks. */
    private static final int RETAINED = 4096;

    private final int limit;
    private byte[] bytes = new byte[0];
    private int length;
    private int streamId;
    private boolean endsStream;
    private int frameBytes;

    HeaderBlock(int limit) {
        this.limit = limit;
    }

    /** A HEADERS frame begins a new block. */
    void begin(int stream, boolean endStream) {
        streamId = stream;
        endsStream = endStream;
        length = 0;
        frameBytes = 0;
    }

    /** A CONTINUATION frame goes on with it. */
    void nextFrame() {
        frameBytes = 0;
    }

    /**
     * Takes a fragment's bytes.
     *
     * @return {@code false}, taking nothing, when the block would pass the limit
     */
    boolean add(ByteBuffer fragment) {
        int count = fragment.remaining();
        if (length + count > limit) {
            return false;
        }
        if (length + count > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(length + count, Math.min(limit, Math.max(256, bytes.length * 2))));
        }
        fragment.get(bytes, length, count);
        length += count;
        frameBytes += count;
        return true;
    }

    /** Whether the current frame brought no bytes (an empty frame that keeps the block open). */
    boolean frameEmpty() {
        return frameBytes == 0;
    }

    int streamId() {
        return streamId;
    }

    boolean endsStream() {
        return endsStream;
    }

    /** The whole block, to decode before the next one begins; a large array is let go afterwards. */
    ByteBuffer take() {
        ByteBuffer block = ByteBuffer.wrap(bytes, 0, length);
        length = 0;
        if (bytes.length > RETAINED) {
            bytes = new byte[0];
        }
        return block;
    }
}
