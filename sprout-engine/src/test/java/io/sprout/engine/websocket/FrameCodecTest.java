package io.sprout.engine.websocket;

import io.sprout.engine.http.Feedings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.zip.Deflater;

import static io.sprout.engine.websocket.ClientFrames.closePayload;
import static io.sprout.engine.websocket.ClientFrames.utf8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Client frames through the parser and the message assembler, every input fed whole, one byte at a time, split at
 * every index and in a direct buffer: each must give the same messages, or fail with the same close code.
 */
class FrameCodecTest {

    private static List<String> events(byte[] bytes) {
        return Feedings.sameForEveryFeeding(bytes, Recorded.run());
    }

    @Test
    void deliversATextMessage() {
        assertThat(events(new ClientFrames().text("Hello, wörld").bytes())).containsExactly("text:Hello, wörld");
    }

    @Test
    void joinsFragmentsAndDeliversControlFramesInBetweenAtOnce() {
        byte[] bytes = new ClientFrames()
                .frame(false, 0, 0x1, utf8("Hel"))
                .frame(true, 0, 0x9, utf8("are you there"))
                .frame(false, 0, 0x0, utf8(""))
                .frame(true, 0, 0xA, utf8("pong"))
                .frame(true, 0, 0x0, utf8("lo"))
                .bytes();
        assertThat(events(bytes)).containsExactly("ping:are you there", "pong:pong", "text:Hello");
    }

    @Test
    void readsSevenSixteenAndSixtyFourBitLengths() {
        byte[] bytes = new ClientFrames()
                .frame(true, 0, 0x2, new byte[125])
                .frame(true, 0, 0x2, new byte[126])
                .frame(true, 0, 0x2, new byte[65_535])
                .frame(true, 0, 0x2, new byte[65_536])
                .frame(true, 0, 0x2, new byte[0])
                .bytes();
        // Split at every index of 130 KiB is too slow for a unit test: whole and one byte at a time suffice here.
        List<String> expected = List.of("binary:125", "binary:126", "binary:65535", "binary:65536", "binary:0");
        assertThat(Recorded.run().apply(List.of(ByteBuffer.wrap(bytes)))).isEqualTo(expected);
        List<ByteBuffer> oneByOne = new java.util.ArrayList<>();
        for (int i = 0; i < bytes.length; i++) {
            oneByOne.add(ByteBuffer.wrap(bytes, i, 1));
        }
        assertThat(Recorded.run().apply(oneByOne)).isEqualTo(expected);
    }

    @Test
    void readsCloseFramesWithAndWithoutACode() {
        assertThat(events(new ClientFrames().frame(true, 0, 0x8, closePayload(1000, utf8("bye"))).bytes()))
                .containsExactly("close:1000:bye");
        assertThat(events(new ClientFrames().frame(true, 0, 0x8, new byte[0]).bytes()))
                .containsExactly("close:1005:");
        assertThat(events(new ClientFrames().frame(true, 0, 0x8, closePayload(4999, new byte[0])).bytes()))
                .containsExactly("close:4999:");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535})
    void failsACloseFrameWithACodeThatMayNotBeSent(int code) {
        assertThat(events(new ClientFrames().frame(true, 0, 0x8, closePayload(code, new byte[0])).bytes()))
                .containsExactly("fail:1002");
    }

    @Test
    void failsMalformedFramesWithProtocolError() {
        List<byte[]> broken = List.of(
                new ClientFrames().frame(true, 0, 0x3, utf8("reserved opcode")).bytes(),
                new ClientFrames().frame(true, 0, 0xB, new byte[0]).bytes(),
                new ClientFrames().frame(true, 2, 0x1, utf8("RSV2")).bytes(),
                new ClientFrames().frame(true, 4, 0x1, utf8("RSV1 without permessage-deflate")).bytes(),
                new ClientFrames().frame(true, 0, 0x1, utf8("unmasked"), false).bytes(),
                new ClientFrames().frame(true, 0, 0x9, new byte[126]).bytes(),
                new ClientFrames().frame(false, 0, 0x9, utf8("fragmented ping")).bytes(),
                new ClientFrames().frame(true, 0, 0x0, utf8("continuation without a message")).bytes(),
                new ClientFrames().frame(false, 0, 0x1, utf8("a")).frame(true, 0, 0x1, utf8("b")).bytes(),
                new ClientFrames().frame(true, 0, 0x8, new byte[] {3}).bytes(),
                new ClientFrames().raw(0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0).bytes());
        for (byte[] bytes : broken) {
            assertThat(events(bytes)).as(java.util.HexFormat.of().formatHex(bytes)).containsExactly("fail:1002");
        }
    }

    @Test
    void failsFramesAndMessagesOverTheLimitsWith1009() {
        byte[] oneBigFrame = new ClientFrames().frame(true, 0, 0x2, new byte[101]).bytes();
        assertThat(Feedings.sameForEveryFeeding(oneBigFrame, Recorded.run(100, 1000, false, false)))
                .containsExactly("fail:1009");
        byte[] manyFrames = new ClientFrames()
                .frame(false, 0, 0x2, new byte[60])
                .frame(true, 0, 0x9, new byte[0])
                .frame(true, 0, 0x0, new byte[60])
                .bytes();
        assertThat(Feedings.sameForEveryFeeding(manyFrames, Recorded.run(100, 100, false, false)))
                .containsExactly("ping:", "fail:1009");
    }

    @Test
    void failsInvalidUtf8AtTheFirstBadByteEvenAcrossFrames() {
        // κόσμε followed by ED A0 80, a surrogate: invalid at the A0, while the frame is still arriving.
        byte[] first = utf8("κόσμε");
        byte[] text = new ClientFrames()
                .frame(false, 0, 0x1, first)
                .frame(true, 0, 0x9, utf8("x"))
                .frame(true, 0, 0x0, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80, 'e', 'd'})
                .bytes();
        assertThat(events(text)).containsExactly("ping:x", "fail:1007");
        byte[] truncated = new ClientFrames().frame(true, 0, 0x1, new byte[] {'a', (byte) 0xC3}).bytes();
        assertThat(events(truncated)).containsExactly("fail:1007");
        byte[] badReason = new ClientFrames().frame(true, 0, 0x8, closePayload(1000, new byte[] {(byte) 0xC0, 0x20}))
                .bytes();
        assertThat(events(badReason)).containsExactly("fail:1007");
    }

    @Test
    void failsAtOnceWhileTheBadFrameIsStillArriving() {
        byte[] bytes = new ClientFrames().frame(true, 0, 0x1, new byte[] {'o', 'k', (byte) 0xFF, 'x', 'y'}).bytes();
        List<String> events = new java.util.ArrayList<>();
        FrameParser parser = new FrameParser(new MessageAssembler(Recorded.recorder(events, false), 1000, 1000,
                null), 1000, false);
        int upToTheBadByte = 2 + 4 + 3;
        CloseException failure = org.junit.jupiter.api.Assertions.assertThrows(CloseException.class,
                () -> parser.parse(ByteBuffer.wrap(bytes, 0, upToTheBadByte)));
        assertThat(failure.code()).isEqualTo(CloseCodes.INVALID_PAYLOAD);
    }

    @Test
    void inflatesCompressedMessagesKeepingTheWindowAcrossMessages() {
        Deflater client = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        String repeated = "the same words again and again, ".repeat(20);
        byte[] first = ClientFrames.compressed(client, utf8(repeated));
        byte[] second = ClientFrames.compressed(client, utf8(repeated));
        client.end();
        assertThat(second.length).as("the second message leans on the first's window").isLessThan(first.length);
        int half = first.length / 2;
        byte[] bytes = new ClientFrames()
                .frame(false, 4, 0x1, java.util.Arrays.copyOfRange(first, 0, half))
                .frame(true, 0, 0x9, utf8("between"))
                .frame(true, 0, 0x0, java.util.Arrays.copyOfRange(first, half, first.length))
                .frame(true, 4, 0x1, second)
                .frame(true, 0, 0x2, utf8("not compressed"))
                .bytes();
        assertThat(Feedings.sameForEveryFeeding(bytes, Recorded.run(1 << 20, 1 << 20, true, false)))
                .containsExactly("ping:between", "text:" + repeated, "text:" + repeated, "binary:14");
    }

    @Test
    void resetsTheInflaterAfterEachMessageWhenTheClientTakesNoContextOver() {
        byte[] message = utf8("no context taken over");
        byte[] bytes = new ClientFrames()
                .frame(true, 4, 0x1, freshlyCompressed(message))
                .frame(true, 4, 0x1, freshlyCompressed(message))
                .bytes();
        assertThat(Feedings.sameForEveryFeeding(bytes, Recorded.run(1 << 20, 1 << 20, true, true)))
                .containsExactly("text:no context taken over", "text:no context taken over");
    }

    @Test
    void failsCompressionRuleBreaksAndBombs() {
        byte[] rsv1OnContinuation = new ClientFrames()
                .frame(false, 4, 0x2, freshlyCompressed(utf8("a")))
                .frame(true, 4, 0x0, freshlyCompressed(utf8("b")))
                .bytes();
        assertThat(Feedings.sameForEveryFeeding(rsv1OnContinuation, Recorded.run(1 << 20, 1 << 20, true, false)))
                .containsExactly("fail:1002");
        byte[] rsv1OnPing = new ClientFrames().frame(true, 4, 0x9, new byte[0]).bytes();
        assertThat(Feedings.sameForEveryFeeding(rsv1OnPing, Recorded.run(1 << 20, 1 << 20, true, false)))
                .containsExactly("fail:1002");
        byte[] bomb = new ClientFrames().frame(true, 4, 0x2, freshlyCompressed(new byte[1 << 20])).bytes();
        assertThat(bomb.length).isLessThan(2048);
        assertThat(Recorded.run(1 << 20, 65_536, true, false).apply(List.of(ByteBuffer.wrap(bomb))))
                .containsExactly("fail:1009");
        byte[] corrupt = new ClientFrames().frame(true, 4, 0x2, new byte[] {(byte) 0xFF, (byte) 0xFF, 0x12}).bytes();
        assertThat(Feedings.sameForEveryFeeding(corrupt, Recorded.run(1 << 20, 1 << 20, true, false)))
                .containsExactly("fail:1007");
    }

    private static byte[] freshlyCompressed(byte[] message) {
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        try {
            return ClientFrames.compressed(deflater, message);
        } finally {
            deflater.end();
        }
    }
}
