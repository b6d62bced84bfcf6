package io.sprout.engine.hpack;

import java.nio.ByteBuffer;

/**
 * Decodes Huffman-coded string literals (RFC 7541 §5.2) four bits at a time. The code's tree has 256 inner nodes;
 * each is a state, and a table made once from {@link HuffmanCode} says, for every state and nibble, which state
 * follows and which symbol, if any, completed on the way (codes are at least 5 bits long, so at most one per
 * nibble). Two lookups per octet, no branches per bit.
 *
 * <p>A string is rejected when it contains EOS, or when it ends anywhere but on a symbol boundary or in at most
 * 7 bits of the all-ones prefix of EOS (the only padding §5.2 allows).
 */
final class HuffmanDecoder {

    private static final int STATES = 256;
    private static final int ROOT = 0;
    private static final int STATE_MASK = 0xFF;
    private static final int EMITS = 1 << 8;
    private static final int SYMBOL_SHIFT = 9;
    private static final int FAILS = 1 << 17;
    private static final int MAX_PADDING = 7;

    /** At {@code state << 4 | nibble}: the next state, {@link #EMITS} with the symbol, or {@link #FAILS} on EOS. */
    private static final int[] TRANSITIONS = new int[STATES * 16];

    /** Whether a string may end in a state: the root, or at most 7 one bits below it. */
    private static final boolean[] MAY_END = new boolean[STATES];

    static {
        buildTables();
    }

    private HuffmanDecoder() {
    }

    /**
     * Decodes the next {@code length} octets of {@code in}, writing the first {@code limit} decoded octets to
     * {@code out} and only counting the rest, so a string the caller will not keep costs no memory.
     *
     * @return the decoded length, which exceeds {@code limit} when octets were left out
     */
    static long decode(ByteBuffer in, int length, byte[] out, int limit) throws HpackException {
        int state = ROOT;
        long count = 0;
        for (int i = 0; i < length; i++) {
            int octet = in.get() & 0xFF;
            int high = TRANSITIONS[state << 4 | octet >>> 4];
            count = emit(high, out, limit, count);
            int low = TRANSITIONS[(high & STATE_MASK) << 4 | octet & 0xF];
            count = emit(low, out, limit, count);
            state = low & STATE_MASK;
        }
        if (!MAY_END[state]) {
            throw new HpackException("Huffman-coded string padded with a zero bit or with more than 7 bits");
        }
        return count;
    }

    private static long emit(int transition, byte[] out, int limit, long count) throws HpackException {
        if ((transition & FAILS) != 0) {
            throw new HpackException("EOS symbol inside a Huffman-coded string");
        }
        if ((transition & EMITS) == 0) {
            return count;
        }
        if (count < limit) {
            out[(int) count] = (byte) (transition >>> SYMBOL_SHIFT);
        }
        return count + 1;
    }

    private static void buildTables() {
        // children[node][bit]: an inner node's number (> 0), a leaf as ~symbol (< 0); the root is never a child.
        int[][] children = new int[STATES][2];
        int[] depth = new int[STATES];
        boolean[] allOnes = new boolean[STATES];
        allOnes[ROOT] = true;
        int nodes = 1;
        for (int symbol = 0; symbol <= HuffmanCode.EOS; symbol++) {
            int code = HuffmanCode.CODES[symbol];
            int node = ROOT;
            for (int bit = HuffmanCode.LENGTHS[symbol] - 1; bit > 0; bit--) {
                int branch = code >>> bit & 1;
                if (children[node][branch] == 0) {
                    children[node][branch] = nodes;
                    depth[nodes] = depth[node] + 1;
                    allOnes[nodes] = allOnes[node] && branch == 1;
                    nodes++;
                }
                node = children[node][branch];
            }
            children[node][code & 1] = ~symbol;
        }
        for (int state = 0; state < STATES; state++) {
            MAY_END[state] = allOnes[state] && depth[state] <= MAX_PADDING;
            for (int nibble = 0; nibble < 16; nibble++) {
                TRANSITIONS[state << 4 | nibble] = walk(children, state, nibble);
            }
        }
    }

    /** Follows the four bits of {@code nibble} from {@code state}, returning to the root after each symbol. */
    private static int walk(int[][] children, int state, int nibble) {
        int node = state;
        int emitted = 0;
        for (int bit = 3; bit >= 0; bit--) {
            int next = children[node][nibble >>> bit & 1];
            if (next >= 0) {
                node = next;
            } else if (~next == HuffmanCode.EOS) {
                return FAILS;
            } else {
                emitted = EMITS | ~next << SYMBOL_SHIFT;
                node = ROOT;
            }
        }
        return emitted | node;
    }
}
