package io.sprout.boot.websocket.annotated;

import jakarta.websocket.CloseReason;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.Decoder;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.PongMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.PathParam;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.util.List;

import static io.sprout.boot.websocket.MessageKinds.Kind.BINARY;
import static io.sprout.boot.websocket.MessageKinds.Kind.PONG;
import static io.sprout.boot.websocket.MessageKinds.Kind.TEXT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The analysis of annotated endpoints: the specification's parameter rules, checked at deployment. */
class AnnotatedEndpointModelTest {

    public record Point(int x, int y) {
    }

    public static class PointDecoder implements Decoder.Text<Point> {
        @Override
        public Point decode(String s) {
            String[] parts = s.split(",");
            return new Point(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
        }

        @Override
        public boolean willDecode(String s) {
            return s.contains(",");
        }
    }

    public static class Complete {
        @OnOpen
        public void open(Session session, EndpointConfig config, @PathParam("id") int id) {
        }

        @OnMessage(maxMessageSize = 1000)
        public String text(String message, boolean last, Session session) {
            return message;
        }

        @OnMessage
        public void binary(@PathParam("id") Long id, byte[] data) {
        }

        @OnMessage
        public void pong(PongMessage pong) {
        }

        @OnClose
        public void close(CloseReason reason, Session session) {
        }

        @OnError
        public void error(Throwable failure, @PathParam("id") String id) {
        }
    }

    @Test
    void acceptsEveryAllowedParameterKind() throws Exception {
        AnnotatedEndpointModel model = AnnotatedEndpointModel.analyse(Complete.class, List.of());

        assertThat(model.onOpen().arguments()).containsExactly(Argument.SESSION, Argument.CONFIG,
                model.onOpen().arguments().get(2));
        assertThat(model.onClose().arguments()).containsExactly(Argument.CLOSE_REASON, Argument.SESSION);
        assertThat(model.onError().arguments().get(0)).isEqualTo(Argument.FAILURE);
        assertThat(model.messages()).extracting(MessageMethod::kind).containsExactlyInAnyOrder(TEXT, BINARY, PONG);
        MessageMethod text = model.messages().stream().filter(m -> m.kind() == TEXT).findFirst().orElseThrow();
        assertThat(text.partial()).isTrue();
        assertThat(text.bound().arguments()).containsExactly(Argument.MESSAGE, Argument.LAST, Argument.SESSION);
        assertThat(model.maxText()).isEqualTo(1000);
        assertThat(model.maxBinary()).isZero();
    }

    public static class Streams {
        @OnMessage
        public void text(Reader reader) {
        }

        @OnMessage
        public void binary(InputStream in) {
        }
    }

    @Test
    void streamsAreTextAndBinaryMessages() throws Exception {
        assertThat(AnnotatedEndpointModel.analyse(Streams.class, List.of()).messages())
                .extracting(MessageMethod::kind).containsExactlyInAnyOrder(TEXT, BINARY);
    }

    public static class Decoded {
        @OnMessage
        public void point(Point point) {
        }
    }

    @Test
    void decodedTypeNeedsADecoder() throws Exception {
        assertThatThrownBy(() -> AnnotatedEndpointModel.analyse(Decoded.class, List.of()))
                .isInstanceOf(DeploymentException.class).hasMessageContaining("no decoder");
        assertThat(AnnotatedEndpointModel.analyse(Decoded.class, List.of(PointDecoder.class)).messages())
                .singleElement().extracting(MessageMethod::kind).isEqualTo(TEXT);
    }

    public static class TwoTextHandlers {
        @OnMessage
        public void one(String message) {
        }

        @OnMessage
        public void two(Reader message) {
        }
    }

    public static class TwoOpens {
        @OnOpen
        public void one() {
        }

        @OnOpen
        public void two(Session session) {
        }
    }

    public static class ErrorWithoutThrowable {
        @OnError
        public void error(Session session) {
        }
    }

    public static class OpenWithStrangeParameter {
        @OnOpen
        public void open(String what) {
        }
    }

    public static class TwoMessageParameters {
        @OnMessage
        public void message(String one, String two) {
        }
    }

    public static class PartialOfDecodedType {
        @OnMessage
        public void message(Reader reader, boolean last) {
        }
    }

    public static class PathParamOfObject {
        @OnMessage
        public void message(String text, @PathParam("id") Object id) {
        }
    }

    public static class PrivateHandler {
        @OnMessage
        void message(String text) {
        }
    }

    @Test
    void invalidEndpointsFailDeploymentNamingTheRule() {
        assertInvalid(TwoTextHandlers.class, "two @OnMessage methods for text messages");
        assertInvalid(TwoOpens.class, "two methods with the same annotation");
        assertInvalid(ErrorWithoutThrowable.class, "must take a Throwable");
        assertInvalid(OpenWithStrangeParameter.class, "parameter of type java.lang.String");
        assertInvalid(TwoMessageParameters.class, "exactly one message parameter");
        assertInvalid(PartialOfDecodedType.class, "exactly one message parameter");
        assertInvalid(PathParamOfObject.class, "@PathParam(\"id\")");
        assertInvalid(PrivateHandler.class, "must be public");
    }

    private static void assertInvalid(Class<?> type, String message) {
        assertThatThrownBy(() -> AnnotatedEndpointModel.analyse(type, List.of()))
                .as(type.getSimpleName()).isInstanceOf(DeploymentException.class).hasMessageContaining(message);
    }

    @Test
    void partialBinaryTakesByteBufferOrByteArray() throws Exception {
        class Partial {
            @OnMessage
            public void message(ByteBuffer part, boolean last) {
            }
        }
        assertThat(AnnotatedEndpointModel.analyse(Partial.class, List.of()).messages()).singleElement()
                .satisfies(m -> assertThat(m.partial()).isTrue());
    }
}
