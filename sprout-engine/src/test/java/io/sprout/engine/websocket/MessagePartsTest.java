package io.sprout.engine.websocket;

import io.sprout.engine.http.Feedings;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.Deflater;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Frames limited by the message limit that applies to them, and messages taken in parts as they arrive. */
class MessagePartsTest {

    private static final int NO_FRAME_CEILING = Integer.MAX_VALUE;

    @Test
    void aFrameAsLargeAsTheMessageLimitAllowsIsAccepted() {
        byte[] bytes = new ClientFrames().frame(true, 0, 0x2, new byte[100_000]).bytes();

        List<String> events = Recorded.run(NO_FRAME_CEILING, 100_000, false, false)
                .apply(List.of(ByteBuffer.wrap(bytes)));

        assertThat(events).containsExactly("binary:100000");
    }

    @Test
    void largeTextThenLargeBinaryAreBothDeliveredWhole() {
        byte[] bytes = new ClientFrames().frame(true, 0, 0x1, "x".repeat(100_000).getBytes(StandardCharsets.UTF_8))
                .frame(true, 0, 0x2, new byte[100_000]).bytes();

        List<String> events = Recorded.run(NO_FRAME_CEILING, 262_144, false, false)
                .apply(List.of(ByteBuffer.wrap(bytes)));

        assertThat(events).hasSize(2);
        assertThat(events.get(1)).isEqualTo("binary:100000");
    }

    @Test
    void aFrameOverTheMessageLimitFailsWith1009AsSoonAsItsLengthIsKnown() {
        byte[] header = new ClientFrames().frame(true, 0, 0x1, new byte[2_000]).bytes();
        List<String> events = new ArrayList<>();
        FrameParser parser = new FrameParser(new MessageAssembler(Recorded.recorder(events, false), 1_000, 1_000,
                null), NO_FRAME_CEILING, false);
        int headAndMask = 2 + 2 + 4;

        CloseException failure = assertThrows(CloseException.class,
                () -> parser.parse(ByteBuffer.wrap(header, 0, headAndMask)));

        assertThat(failure.code()).isEqualTo(CloseCodes.MESSAGE_TOO_BIG);
    }

    @Test
    void theFrameCeilingStillAppliesBelowTheMessageLimit() {
        byte[] bytes = new ClientFrames().frame(true, 0, 0x2, new byte[5_000]).bytes();

        assertThat(Recorded.run(4_096, 1 << 20, false, false).apply(List.of(ByteBuffer.wrap(bytes))))
                .containsExactly("fail:1009");
    }

    @Test
    void limitsReplacedBetweenMessagesApplyToTheNextOne() throws CloseException {
        List<String> events = new ArrayList<>();
        MessageAssembler assembler = new MessageAssembler(Recorded.recorder(events, false), 10, 10, null);
        FrameParser parser = new FrameParser(assembler, NO_FRAME_CEILING, false);
        parser.parse(ByteBuffer.wrap(new ClientFrames().frame(true, 0, 0x2, new byte[10]).bytes()));

        assembler.limits(5, 5);

        assertThrows(CloseException.class,
                () -> parser.parse(ByteBuffer.wrap(new ClientFrames().frame(true, 0, 0x2, new byte[6]).bytes())));
        assertThat(events).containsExactly("binary:10");
    }

    @Test
    void aTextMessageInPartsEndsEachPartOnAWholeCharacter() {
        // Parts of 16 bytes (the smallest): the euro sign (3 bytes) straddles the first part's end.
        String text = "abcdefghijklmn€opqrstuvwxyz0123456789€";
        byte[] bytes = new ClientFrames().frame(true, 0, 0x1, utf8(text)).bytes();

        List<String> events = Feedings.sameForEveryFeeding(bytes, Recorded.run(NO_FRAME_CEILING, 16, false, false,
                true));

        assertThat(events).containsExactly("textPart:abcdefghijklmn", "textPart:€opqrstuvwxyz0", "textPart:123456789€:last");
        assertThat(String.join("", events).replace("textPart:", "").replace(":last", "")).isEqualTo(text);
    }

    @Test
    void aMessageInPartsHasNoSizeLimitAndEachFrameEndsAPart() {
        byte[] bytes = new ClientFrames()
                .frame(false, 0, 0x2, new byte[40])
                .frame(true, 0, 0x9, new byte[0])
                .frame(true, 0, 0x0, new byte[10])
                .bytes();

        List<String> events = Feedings.sameForEveryFeeding(bytes, Recorded.run(NO_FRAME_CEILING, 16, false, false,
                true));

        assertThat(events).containsExactly("binaryPart:16", "binaryPart:16", "binaryPart:8", "ping:",
                "binaryPart:10:last");
    }

    @Test
    void aLargeMessageArrivesInPartsOfAtMost64KiB() {
        byte[] payload = new byte[200_000];
        byte[] bytes = new ClientFrames().frame(true, 0, 0x2, payload).bytes();

        List<String> events = Recorded.run(NO_FRAME_CEILING, 16 << 20, false, false, true)
                .apply(List.of(ByteBuffer.wrap(bytes)));

        assertThat(events).containsExactly("binaryPart:65536", "binaryPart:65536", "binaryPart:65536",
                "binaryPart:3392:last");
    }

    @Test
    void aCompressedMessageInPartsIsInflatedIntoParts() {
        Deflater client = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        String text = "abc".repeat(30);
        byte[] bytes = new ClientFrames().frame(true, 4, 0x1, ClientFrames.compressed(client, utf8(text))).bytes();
        client.end();

        List<String> events = Feedings.sameForEveryFeeding(bytes, Recorded.run(NO_FRAME_CEILING, 32, true, false,
                true));

        assertThat(String.join("", events).replace("textPart:", "").replace(":last", "")).isEqualTo(text);
        assertThat(events).last().asString().endsWith(":last");
    }

    @Test
    void invalidUtf8InAPartFailsWith1007() {
        byte[] bytes = new ClientFrames().frame(true, 0, 0x1, new byte[] {'o', 'k', (byte) 0xFF}).bytes();

        assertThat(Recorded.run(NO_FRAME_CEILING, 16, false, false, true).apply(List.of(ByteBuffer.wrap(bytes))))
                .containsExactly("fail:1007");
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
