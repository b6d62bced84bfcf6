package io.sprout.engine.websocket;

import java.nio.ByteBuffer;

/**
 * Checks UTF-8 (RFC 3629) byte by byte across any number of pieces, so a text message split over frames and reads
 * is rejected at the first byte that cannot be valid, not when the message ends. Overlong forms, surrogates
 * (U+D800–U+DFFF) and code points above U+10FFFF are invalid. Once invalid it stays invalid.
 */
final class Utf8Validator {

    /** Continuation bytes the current sequence still needs. */
    private int needed;
    /** Bytes of the current sequence seen so far, while it is unfinished. */
    private int started;
    /** The range the next continuation byte must fall in (narrower after E0, ED, F0 and F4). */
    private int lower = 0x80;
    private int upper = 0xBF;
    private boolean invalid;

    /** Checks the remaining bytes of {@code bytes} without consuming them; returns whether they may still be valid. */
    boolean accept(ByteBuffer bytes) {
        return accept(bytes, bytes.remaining());
    }

    /** As {@link #accept(ByteBuffer)}, for the first {@code count} remaining bytes only. */
    boolean accept(ByteBuffer bytes, int count) {
        int end = bytes.position() + count;
        for (int i = bytes.position(); i < end && !invalid; i++) {
            invalid = !accept(bytes.get(i) & 0xFF);
        }
        return !invalid;
    }

    /** Whether everything so far is valid and no sequence is left unfinished: a text message may end here. */
    boolean complete() {
        return !invalid && needed == 0;
    }

    /** How many of the last bytes accepted begin a character that is not complete yet (0 to 3). */
    int unfinished() {
        return needed > 0 ? started : 0;
    }

    void reset() {
        needed = 0;
        started = 0;
        lower = 0x80;
        upper = 0xBF;
        invalid = false;
    }

    private boolean accept(int b) {
        if (needed > 0) {
            if (b < lower || b > upper) {
                return false;
            }
            lower = 0x80;
            upper = 0xBF;
            needed--;
            started++;
            return true;
        }
        if (b <= 0x7F) {
            return true;
        }
        if (b >= 0xC2 && b <= 0xDF) {
            return expect(1, 0x80, 0xBF);
        }
        if (b == 0xE0) {
            return expect(2, 0xA0, 0xBF);
        }
        if (b == 0xED) {
            return expect(2, 0x80, 0x9F);
        }
        if (b >= 0xE1 && b <= 0xEF) {
            return expect(2, 0x80, 0xBF);
        }
        if (b == 0xF0) {
            return expect(3, 0x90, 0xBF);
        }
        if (b >= 0xF1 && b <= 0xF3) {
            return expect(3, 0x80, 0xBF);
        }
        if (b == 0xF4) {
            return expect(3, 0x80, 0x8F);
        }
        return false;
    }

    private boolean expect(int continuations, int nextLower, int nextUpper) {
        needed = continuations;
        started = 1;
        lower = nextLower;
        upper = nextUpper;
        return true;
    }
}
