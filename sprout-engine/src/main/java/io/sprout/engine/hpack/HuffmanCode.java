package io.sprout.engine.hpack;

/**
 * The Huffman code of RFC 7541 Appendix B: 256 octets and EOS (symbol 256), codes of 5 to 30 bits. The code is
 * canonical (within one length, codes count up in symbol order; a longer code follows the shorter ones) and complete
 * (every bit string is a prefix of some code or begins with one), which {@code HuffmanCodeTest} checks to guard this
 * transcription. {@link HuffmanDecoder} builds its state machine from these tables.
 */
final class HuffmanCode {

    static final int EOS = 256;

    /** The code of each symbol, right-aligned in the int; symbol 256 is EOS. */
    static final int[] CODES = {
        0x1ff8, 0x7fffd8, 0xfffffe2, 0xfffffe3,              // 0 1 2 3
        0xfffffe4, 0xfffffe5, 0xfffffe6, 0xfffffe7,          // 4 5 6 7
        0xfffffe8, 0xffffea, 0x3ffffffc, 0xfffffe9,          // 8 9 10 11
        0xfffffea, 0x3ffffffd, 0xfffffeb, 0xfffffec,         // 12 13 14 15
        0xfffffed, 0xfffffee, 0xfffffef, 0xffffff0,          // 16 17 18 19
        0xffffff1, 0xffffff2, 0x3ffffffe, 0xffffff3,         // 20 21 22 23
        0xffffff4, 0xffffff5, 0xffffff6, 0xffffff7,          // 24 25 26 27
        0xffffff8, 0xffffff9, 0xffffffa, 0xffffffb,          // 28 29 30 31
        0x14, 0x3f8, 0x3f9, 0xffa,                           // 32 '!' '"' '#'
        0x1ff9, 0x15, 0xf8, 0x7fa,                           // '$' '%' '&' 39
        0x3fa, 0x3fb, 0xf9, 0x7fb,                           // '(' ')' '*' '+'
        0xfa, 0x16, 0x17, 0x18,                              // ',' '-' '.' '/'
        0x0, 0x1, 0x2, 0x19,                                 // '0' '1' '2' '3'
        0x1a, 0x1b, 0x1c, 0x1d,                              // '4' '5' '6' '7'
        0x1e, 0x1f, 0x5c, 0xfb,                              // '8' '9' ':' ';'
        0x7ffc, 0x20, 0xffb, 0x3fc,                          // '<' '=' '>' '?'
        0x1ffa, 0x21, 0x5d, 0x5e,                            // '@' 'A' 'B' 'C'
        0x5f, 0x60, 0x61, 0x62,                              // 'D' 'E' 'F' 'G'
        0x63, 0x64, 0x65, 0x66,                              // 'H' 'I' 'J' 'K'
        0x67, 0x68, 0x69, 0x6a,                              // 'L' 'M' 'N' 'O'
        0x6b, 0x6c, 0x6d, 0x6e,                              // 'P' 'Q' 'R' 'S'
        0x6f, 0x70, 0x71, 0x72,                              // 'T' 'U' 'V' 'W'
        0xfc, 0x73, 0xfd, 0x1ffb,                            // 'X' 'Y' 'Z' '['
        0x7fff0, 0x1ffc, 0x3ffc, 0x22,                       // 92 ']' '^' '_'
        0x7ffd, 0x3, 0x23, 0x4,                              // '`' 'a' 'b' 'c'
        0x24, 0x5, 0x25, 0x26,                               // 'd' 'e' 'f' 'g'
        0x27, 0x6, 0x74, 0x75,                               // 'h' 'i' 'j' 'k'
        0x28, 0x29, 0x2a, 0x7,                               // 'l' 'm' 'n' 'o'
        0x2b, 0x76, 0x2c, 0x8,                               // 'p' 'q' 'r' 's'
        0x9, 0x2d, 0x77, 0x78,                               // 't' 'u' 'v' 'w'
        0x79, 0x7a, 0x7b, 0x7ffe,                            // 'x' 'y' 'z' '{'
        0x7fc, 0x3ffd, 0x1ffd, 0xffffffc,                    // '|' '}' '~' 127
        0xfffe6, 0x3fffd2, 0xfffe7, 0xfffe8,                 // 128 129 130 131
        0x3fffd3, 0x3fffd4, 0x3fffd5, 0x7fffd9,              // 132 133 134 135
        0x3fffd6, 0x7fffda, 0x7fffdb, 0x7fffdc,              // 136 137 138 139
        0x7fffdd, 0x7fffde, 0xffffeb, 0x7fffdf,              // 140 141 142 143
        0xffffec, 0xffffed, 0x3fffd7, 0x7fffe0,              // 144 145 146 147
        0xffffee, 0x7fffe1, 0x7fffe2, 0x7fffe3,              // 148 149 150 151
        0x7fffe4, 0x1fffdc, 0x3fffd8, 0x7fffe5,              // 152 153 154 155
        0x3fffd9, 0x7fffe6, 0x7fffe7, 0xffffef,              // 156 157 158 159
        0x3fffda, 0x1fffdd, 0xfffe9, 0x3fffdb,               // 160 161 162 163
        0x3fffdc, 0x7fffe8, 0x7fffe9, 0x1fffde,              // 164 165 166 167
        0x7fffea, 0x3fffdd, 0x3fffde, 0xfffff0,              // 168 169 170 171
        0x1fffdf, 0x3fffdf, 0x7fffeb, 0x7fffec,              // 172 173 174 175
        0x1fffe0, 0x1fffe1, 0x3fffe0, 0x1fffe2,              // 176 177 178 179
        0x7fffed, 0x3fffe1, 0x7fffee, 0x7fffef,              // 180 181 182 183
        0xfffea, 0x3fffe2, 0x3fffe3, 0x3fffe4,               // 184 185 186 187
        0x7ffff0, 0x3fffe5, 0x3fffe6, 0x7ffff1,              // 188 189 190 191
        0x3ffffe0, 0x3ffffe1, 0xfffeb, 0x7fff1,              // 192 193 194 195
        0x3fffe7, 0x7ffff2, 0x3fffe8, 0x1ffffec,             // 196 197 198 199
        0x3ffffe2, 0x3ffffe3, 0x3ffffe4, 0x7ffffde,          // 200 201 202 203
        0x7ffffdf, 0x3ffffe5, 0xfffff1, 0x1ffffed,           // 204 205 206 207
        0x7fff2, 0x1fffe3, 0x3ffffe6, 0x7ffffe0,             // 208 209 210 211
        0x7ffffe1, 0x3ffffe7, 0x7ffffe2, 0xfffff2,           // 212 213 214 215
        0x1fffe4, 0x1fffe5, 0x3ffffe8, 0x3ffffe9,            // 216 217 218 219
        0xffffffd, 0x7ffffe3, 0x7ffffe4, 0x7ffffe5,          // 220 221 222 223
        0xfffec, 0xfffff3, 0xfffed, 0x1fffe6,                // 224 225 226 227
        0x3fffe9, 0x1fffe7, 0x1fffe8, 0x7ffff3,              // 228 229 230 231
        0x3fffea, 0x3fffeb, 0x1ffffee, 0x1ffffef,            // 232 233 234 235
        0xfffff4, 0xfffff5, 0x3ffffea, 0x7ffff4,             // 236 237 238 239
        0x3ffffeb, 0x7ffffe6, 0x3ffffec, 0x3ffffed,          // 240 241 242 243
        0x7ffffe7, 0x7ffffe8, 0x7ffffe9, 0x7ffffea,          // 244 245 246 247
        0x7ffffeb, 0xffffffe, 0x7ffffec, 0x7ffffed,          // 248 249 250 251
        0x7ffffee, 0x7ffffef, 0x7fffff0, 0x3ffffee,          // 252 253 254 255
        0x3fffffff,                                          // EOS
    };

    /** The length in bits of each symbol's code, from 5 to 30. */
    static final byte[] LENGTHS = {
        13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, // 0..15
        28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28, // 16..31
        6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6, // 32..47
        5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10, // 48..63
        13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, // 64..79
        7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6, // 80..95
        15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5, // 96..111
        6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28, // 112..127
        20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23, // 128..143
        24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24, // 144..159
        22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, // 160..175
        21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23, // 176..191
        26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25, // 192..207
        19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27, // 208..223
        20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23, // 224..239
        26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26, // 240..255
        30, // 256..256
    };

    private HuffmanCode() {
    }
}
