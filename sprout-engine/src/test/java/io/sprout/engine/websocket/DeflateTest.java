package io.sprout.engine.websocket;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.Deflater;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code permessage-deflate} offer negotiation and a round trip through the deflater and the inflater. */
class DeflateTest {

    private static DeflateNegotiation negotiate(String... offers) {
        return DeflateNegotiation.negotiate(List.of(offers));
    }

    @Test
    void acceptsThePlainOfferAndEchoesTheContextTakeoverParameters() {
        assertThat(negotiate("permessage-deflate").responseValue()).isEqualTo("permessage-deflate");
        assertThat(negotiate("permessage-deflate; client_max_window_bits").responseValue())
                .isEqualTo("permessage-deflate");
        assertThat(negotiate("permessage-deflate; server_no_context_takeover; client_no_context_takeover")
                .responseValue())
                .isEqualTo("permessage-deflate; server_no_context_takeover; client_no_context_takeover");
        assertThat(negotiate("permessage-deflate; server_max_window_bits=15").responseValue())
                .isEqualTo("permessage-deflate; server_max_window_bits=15");
        assertThat(negotiate("permessage-deflate; client_max_window_bits=\"10\"")).isNotNull();
        assertThat(negotiate("permessage-deflate; server_max_window_bits=15").serverCompresses()).isTrue();
    }

    @Test
    void acceptsASmallServerWindowBySendingUncompressed() {
        DeflateNegotiation small = negotiate("permessage-deflate; server_max_window_bits=9");
        assertThat(small.responseValue()).isEqualTo("permessage-deflate; server_max_window_bits=9");
        assertThat(small.serverCompresses()).isFalse();
        assertThat(negotiate("permessage-deflate").serverCompresses()).isTrue();
    }

    @Test
    void declinesOffersItCannotHonourAndTakesTheNextOne() {
        assertThat(negotiate("permessage-deflate; server_max_window_bits")).as("needs a value").isNull();
        assertThat(negotiate("permessage-deflate; server_max_window_bits=7")).isNull();
        assertThat(negotiate("permessage-deflate; unknown_parameter")).isNull();
        assertThat(negotiate("permessage-deflate; server_no_context_takeover; server_no_context_takeover")).isNull();
        assertThat(negotiate("permessage-deflate; server_no_context_takeover=1")).isNull();
        assertThat(negotiate("permessage-deflate; client_max_window_bits=16")).isNull();
        assertThat(negotiate("x-webkit-deflate-frame")).isNull();
        assertThat(negotiate("permessage-deflate; server_max_window_bits=16, permessage-deflate; "
                + "client_no_context_takeover").clientNoContextTakeover()).isTrue();
        assertThat(negotiate("foo", "permessage-deflate; server_no_context_takeover").serverNoContextTakeover())
                .isTrue();
    }

    @Test
    void whatTheDeflaterSendsTheInflaterRestoresAcrossMessages() throws CloseException {
        for (boolean noContextTakeover : new boolean[] {false, true}) {
            Random random = new Random(3);
            try (MessageDeflater deflater = new MessageDeflater(Deflater.DEFAULT_COMPRESSION, noContextTakeover);
                    MessageInflater inflater = new MessageInflater(noContextTakeover)) {
                for (int round = 0; round < 50; round++) {
                    String message = "message " + round + " " + "abc".repeat(random.nextInt(5000));
                    byte[] payload = deflater.deflate(ByteBuffer.wrap(message.getBytes(StandardCharsets.UTF_8)));
                    assertThat(inflated(inflater, payload)).isEqualTo(message);
                }
                assertThat(deflater.deflate(ByteBuffer.allocate(0))).as("an empty message").containsExactly(0);
            }
        }
    }

    private static String inflated(MessageInflater inflater, byte[] payload) throws CloseException {
        List<Byte> out = new ArrayList<>();
        MessageInflater.Sink sink = bytes -> {
            while (bytes.hasRemaining()) {
                out.add(bytes.get());
            }
        };
        inflater.inflate(ByteBuffer.wrap(payload), sink);
        inflater.finishMessage(sink);
        byte[] bytes = new byte[out.size()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = out.get(i);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
