package io.sprout.boot.websocket;

import jakarta.websocket.DecodeException;
import jakarta.websocket.Decoder;
import jakarta.websocket.EncodeException;
import jakarta.websocket.Encoder;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.PongMessage;
import jakarta.websocket.server.ServerEndpointConfig;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one-handler-per-kind rule, message delivery through codecs, and encoding for {@code sendObject}. */
class MessageHandlersTest {

    public record Point(int x, int y) {
    }

    public static class PointText implements Decoder.Text<Point>, Encoder.Text<Point> {
        // Both interfaces have default init and destroy: a class implementing both must choose.
        @Override
        public void init(EndpointConfig config) {
            Decoder.Text.super.init(config);
        }

        @Override
        public void destroy() {
            Decoder.Text.super.destroy();
        }

        @Override
        public Point decode(String s) {
            String[] parts = s.split(",");
            return new Point(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
        }

        @Override
        public boolean willDecode(String s) {
            return s.contains(",");
        }

        @Override
        public String encode(Point point) {
            return point.x() + "," + point.y();
        }
    }

    public record Blob(byte[] bytes) {
    }

    public static class BlobStreams implements Decoder.BinaryStream<Blob>, Encoder.BinaryStream<Blob> {
        // Both interfaces have default init and destroy: a class implementing both must choose.
        @Override
        public void init(EndpointConfig config) {
            Decoder.BinaryStream.super.init(config);
        }

        @Override
        public void destroy() {
            Decoder.BinaryStream.super.destroy();
        }

        @Override
        public Blob decode(InputStream in) throws IOException {
            return new Blob(in.readAllBytes());
        }

        @Override
        public void encode(Blob blob, OutputStream out) throws IOException {
            out.write(blob.bytes());
        }
    }

    public record Note(String text) {
    }

    public static class NoteWriter implements Encoder.TextStream<Note> {
        @Override
        public void encode(Note note, Writer writer) throws IOException {
            writer.write("note:" + note.text());
        }
    }

    private final EndpointConfig config = ServerEndpointConfig.Builder.create(Object.class, "/")
            .decoders(List.of(PointText.class, BlobStreams.class))
            .encoders(List.of(PointText.class, BlobStreams.class, NoteWriter.class)).build();
    private final MessageHandlers handlers = new MessageHandlers(config.getDecoders());
    private final Codecs codecs = new Codecs(config);

    @Test
    void secondHandlerOfAKindIsRefused() {
        handlers.add(String.class, (MessageHandler.Whole<String>) text -> { }, false);
        assertThatThrownBy(() -> handlers.add(Reader.class, (MessageHandler.Whole<Reader>) reader -> { }, false))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("text message handler");
        handlers.add(ByteBuffer.class, (MessageHandler.Whole<ByteBuffer>) data -> { }, false);
        handlers.add(PongMessage.class, (MessageHandler.Whole<PongMessage>) pong -> { }, false);
        assertThat(handlers.all()).hasSize(3);
    }

    @Test
    void removingAHandlerFreesItsKind() {
        MessageHandler.Whole<String> first = text -> { };
        handlers.add(String.class, first, false);
        handlers.remove(first);
        handlers.add(Point.class, (MessageHandler.Whole<Point>) point -> { }, false);
        assertThat(handlers.all()).hasSize(1);
    }

    @Test
    void typesWithoutDecoderAndPartialsOfOtherTypesAreRefused() {
        assertThatThrownBy(() -> handlers.add(Thread.class, (MessageHandler.Whole<Thread>) t -> { }, false))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no decoder");
        assertThatThrownBy(() -> handlers.add(Point.class, (MessageHandler.Partial<Point>) (p, last) -> { }, true))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("partial");
    }

    @Test
    void typeOfAnAnonymousHandlerIsReadFromItsDeclaration() throws Exception {
        List<Integer> received = new ArrayList<>();
        handlers.add(new MessageHandler.Whole<Integer>() {
            @Override
            public void onMessage(Integer value) {
                received.add(value);
            }
        });
        handlers.text("42", codecs);
        assertThat(received).containsExactly(42);
    }

    @Test
    void aLambdaWithoutTypeIsRefusedNamingTheAlternative() {
        MessageHandler.Whole<String> lambda = text -> { };
        assertThatThrownBy(() -> handlers.add(lambda)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("addMessageHandler(Class, handler)");
    }

    @Test
    void decodesTextAndBinaryMessages() throws Exception {
        List<Object> received = new ArrayList<>();
        handlers.add(Point.class, (MessageHandler.Whole<Point>) received::add, false);
        handlers.add(Blob.class, (MessageHandler.Whole<Blob>) blob -> received.add(new String(blob.bytes(),
                StandardCharsets.UTF_8)), false);

        assertThat(handlers.text("3,4", codecs)).isTrue();
        assertThat(handlers.binary(ByteBuffer.wrap("raw".getBytes(StandardCharsets.UTF_8)), codecs)).isTrue();
        assertThat(received).containsExactly(new Point(3, 4), "raw");
        assertThatThrownBy(() -> handlers.text("no comma", codecs)).isInstanceOf(DecodeException.class);
    }

    @Test
    void aMessageWithoutHandlerIsReported() throws Exception {
        assertThat(handlers.text("nobody listens", codecs)).isFalse();
        assertThat(handlers.binary(ByteBuffer.allocate(1), codecs)).isFalse();
    }

    @Test
    void partialHandlerGetsTheWholeMessageAsTheLastPart() throws Exception {
        List<String> parts = new ArrayList<>();
        handlers.add(String.class, (MessageHandler.Partial<String>) (part, last) -> parts.add(part + "|" + last),
                true);
        handlers.text("whole", codecs);
        assertThat(parts).containsExactly("whole|true");
    }

    @Test
    void encodesWithBuiltInsAndEncoders() throws Exception {
        assertThat(codecs.encode("text")).isEqualTo(new Codecs.Text("text"));
        assertThat(codecs.encode(7)).isEqualTo(new Codecs.Text("7"));
        assertThat(codecs.encode(new Point(1, 2))).isEqualTo(new Codecs.Text("1,2"));
        assertThat(codecs.encode(new Note("hi"))).isEqualTo(new Codecs.Text("note:hi"));
        assertThat(codecs.encode(new Blob(new byte[] {9}))).isEqualTo(new Codecs.Binary(ByteBuffer.wrap(
                new byte[] {9})));
        assertThatThrownBy(() -> codecs.encode(new Object())).isInstanceOf(EncodeException.class)
                .hasMessageContaining("no encoder");
    }
}
