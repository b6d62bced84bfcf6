package io.sprout.engine.hpack;

import static io.sprout.engine.hpack.Blocks.decode;
import static io.sprout.engine.hpack.Blocks.entries;
import static io.sprout.engine.hpack.Blocks.hex;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The examples of RFC 7541 Appendix C, hex dumps verbatim: each block decodes to the RFC's header list and leaves
 * the dynamic table with the RFC's entries and size.
 */
class HpackDecoderExamplesTest {

    private static final String COOKIE = "set-cookie: foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1";

    @Test
    void decodesLiteralWithIndexingAndAddsItToTheTable() throws Exception {
        HpackDecoder decoder = new HpackDecoder(4096, 8192);

        assertThat(decode(decoder, hex("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572")))
                .containsExactly("custom-key: custom-header");
        assertThat(entries(decoder.table())).containsExactly("custom-key: custom-header");
        assertThat(decoder.table().size()).isEqualTo(55);
    }

    @Test
    void decodesLiteralWithoutIndexingAndLeavesTheTableEmpty() throws Exception {
        HpackDecoder decoder = new HpackDecoder(4096, 8192);

        assertThat(decode(decoder, hex("040c 2f73 616d 706c 652f 7061 7468"))).containsExactly(":path: /sample/path");
        assertThat(decoder.table().length()).isZero();
    }

    @Test
    void decodesLiteralNeverIndexedAndLeavesTheTableEmpty() throws Exception {
        HpackDecoder decoder = new HpackDecoder(4096, 8192);

        assertThat(decode(decoder, hex("1008 7061 7373 776f 7264 0673 6563 7265 74")))
                .containsExactly("password: secret");
        assertThat(decoder.table().length()).isZero();
    }

    @Test
    void decodesIndexedFieldFromTheStaticTable() throws Exception {
        HpackDecoder decoder = new HpackDecoder(4096, 8192);

        assertThat(decode(decoder, hex("82"))).containsExactly(":method: GET");
        assertThat(decoder.table().length()).isZero();
    }

    @Test
    void decodesThreeRequestsWithoutHuffmanOnOneConnection() throws Exception {
        HpackDecoder decoder = new HpackDecoder(4096, 8192);

        assertThat(decode(decoder, hex("8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d")))
                .containsExactly(":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com");
        assertThat(entries(decoder.table())).containsExactly(":authority: www.example.com");
        assertThat(decoder.table().size()).isEqualTo(57);

        assertThat(decode(decoder, hex("8286 84be 5808 6e6f 2d63 6163 6865")))
                .containsExactly(":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com",
                        "cache-control: no-cache");
        assertThat(entries(decoder.table())).containsExactly("cache-control: no-cache", ":authority: www.example.com");
        assertThat(decoder.table().size()).isEqualTo(110);

        assertThat(decode(decoder, hex("8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65")))
                .containsExactly(":method: GET", ":scheme: https", ":path: /index.html",
                        ":authority: www.example.com", "custom-key: custom-value");
        assertThat(entries(decoder.table())).containsExactly("custom-key: custom-value", "cache-control: no-cache",
                ":authority: www.example.com");
        assertThat(decoder.table().size()).isEqualTo(164);
    }

    @Test
    void decodesThreeRequestsWithHuffmanOnOneConnection() throws Exception {
        HpackDecoder decoder = new HpackDecoder(4096, 8192);

        assertThat(decode(decoder, hex("8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff")))
                .containsExactly(":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com");
        assertThat(entries(decoder.table())).containsExactly(":authority: www.example.com");
        assertThat(decoder.table().size()).isEqualTo(57);

        assertThat(decode(decoder, hex("8286 84be 5886 a8eb 1064 9cbf")))
                .containsExactly(":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com",
                        "cache-control: no-cache");
        assertThat(entries(decoder.table())).containsExactly("cache-control: no-cache", ":authority: www.example.com");
        assertThat(decoder.table().size()).isEqualTo(110);

        assertThat(decode(decoder, hex("8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf")))
                .containsExactly(":method: GET", ":scheme: https", ":path: /index.html",
                        ":authority: www.example.com", "custom-key: custom-value");
        assertThat(entries(decoder.table())).containsExactly("custom-key: custom-value", "cache-control: no-cache",
                ":authority: www.example.com");
        assertThat(decoder.table().size()).isEqualTo(164);
    }

    @Test
    void decodesThreeResponsesWithoutHuffmanEvictingFromA256OctetTable() throws Exception {
        HpackDecoder decoder = new HpackDecoder(256, 8192);

        assertThat(decode(decoder, hex("""
                4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133
                2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70
                6c65 2e63 6f6d""".replace("\n", " "))))
                .containsExactly(":status: 302", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:21 GMT",
                        "location: https://www.example.com");
        assertFirstResponseTable(decoder);

        assertThat(decode(decoder, hex("4803 3330 37c1 c0bf")))
                .containsExactly(":status: 307", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:21 GMT",
                        "location: https://www.example.com");
        assertSecondResponseTable(decoder);

        assertThat(decode(decoder, hex("""
                88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d
                54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049
                5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e
                3d31""".replace("\n", " "))))
                .containsExactly(":status: 200", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:22 GMT",
                        "location: https://www.example.com", "content-encoding: gzip", COOKIE);
        assertThirdResponseTable(decoder);
    }

    @Test
    void decodesThreeResponsesWithHuffmanEvictingFromA256OctetTable() throws Exception {
        HpackDecoder decoder = new HpackDecoder(256, 8192);

        assertThat(decode(decoder, hex("""
                4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6
                2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3""".replace("\n", " "))))
                .containsExactly(":status: 302", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:21 GMT",
                        "location: https://www.example.com");
        assertFirstResponseTable(decoder);

        assertThat(decode(decoder, hex("4883 640e ffc1 c0bf")))
                .containsExactly(":status: 307", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:21 GMT",
                        "location: https://www.example.com");
        assertSecondResponseTable(decoder);

        assertThat(decode(decoder, hex("""
                88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab
                77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f
                9587 3160 65c0 03ed 4ee5 b106 3d50 07""".replace("\n", " "))))
                .containsExactly(":status: 200", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:22 GMT",
                        "location: https://www.example.com", "content-encoding: gzip", COOKIE);
        assertThirdResponseTable(decoder);
    }

    private static void assertFirstResponseTable(HpackDecoder decoder) {
        assertThat(entries(decoder.table())).containsExactly("location: https://www.example.com",
                "date: Mon, 21 Oct 2013 20:13:21 GMT", "cache-control: private", ":status: 302");
        assertThat(decoder.table().size()).isEqualTo(222);
    }

    private static void assertSecondResponseTable(HpackDecoder decoder) {
        assertThat(entries(decoder.table())).containsExactly(":status: 307", "location: https://www.example.com",
                "date: Mon, 21 Oct 2013 20:13:21 GMT", "cache-control: private");
        assertThat(decoder.table().size()).isEqualTo(222);
    }

    private static void assertThirdResponseTable(HpackDecoder decoder) {
        assertThat(entries(decoder.table())).containsExactly(COOKIE, "content-encoding: gzip",
                "date: Mon, 21 Oct 2013 20:13:22 GMT");
        assertThat(decoder.table().size()).isEqualTo(215);
    }
}
