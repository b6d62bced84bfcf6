package io.sprout.engine.contract;

import io.sprout.engine.hpack.HpackDecoder;
import io.sprout.engine.hpack.HpackEncoder;
import io.sprout.engine.http2.ErrorCode;
import io.sprout.engine.http2.Flags;
import io.sprout.engine.http2.FrameListener;
import io.sprout.engine.http2.FrameParser;
import io.sprout.engine.http2.FrameType;
import io.sprout.engine.http2.Http2Exception;
import io.sprout.engine.http2.Setting;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import java.util.function.Predicate;

/**
 * A frame-level HTTP/2 client for tests, over a plain socket or TLS with ALPN {@code h2}: it writes whatever frames a
 * test asks for, well-formed or hostile, and a reader thread parses what the server sends into {@link Frame}s (header
 * blocks decoded, DATA collected per frame) that the {@code await} methods wait for. Every wait is bounded by
 * {@link #WAIT}, which only turns a hang into a failure. It answers the server's SETTINGS with an ACK unless told
 * not to, and nothing else on its own: no WINDOW_UPDATE, so it opens large windows up front.
 */
final class H2Client implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(10);
    /** The pseudo frame type the reader records when the connection ends (end of stream or reset). */
    static final int CLOSED = -1;
    /** The windows {@link #start()} opens, so that no test needs to send WINDOW_UPDATE to receive. */
    static final int BIG_WINDOW = 1 << 24;

    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** One frame from the server; HEADERS carry the decoded block (CONTINUATIONs joined), DATA its bytes. */
    record Frame(int type, int stream, int flags, int code, List<Map.Entry<String, String>> fields, byte[] data) {

        boolean endStream() {
            return (flags & Flags.END_STREAM) != 0;
        }

        ErrorCode error() {
            return ErrorCode.of(code);
        }

        /** GOAWAY: the last stream the server took. */
        int lastStream() {
            return stream;
        }

        String field(String name) {
            return fields.stream().filter(f -> f.getKey().equals(name)).map(Map.Entry::getValue).findFirst()
                    .orElse(null);
        }

        @Override
        public String toString() {
            String name = switch (type) {
                case CLOSED -> "CLOSED";
                case FrameType.DATA -> "DATA(" + data.length + ")";
                case FrameType.HEADERS -> "HEADERS" + fields;
                case FrameType.RST_STREAM -> "RST_STREAM(" + error() + ")";
                case FrameType.GOAWAY -> "GOAWAY(" + error() + ", last " + stream + ", '"
                        + new String(data, StandardCharsets.UTF_8) + "')";
                case FrameType.SETTINGS -> (flags & Flags.ACK) != 0 ? "SETTINGS(ACK)" : "SETTINGS";
                case FrameType.PING -> "PING";
                case FrameType.WINDOW_UPDATE -> "WINDOW_UPDATE(" + code + ")";
                default -> "type " + type;
            };
            return name + (type == FrameType.GOAWAY || type == CLOSED ? "" : " on " + stream)
                    + ((flags & Flags.END_STREAM) != 0 && type <= FrameType.HEADERS ? " END_STREAM" : "");
        }
    }

    /** A stream's response: the head's fields ({@code :status} among them), the body, the trailers if any. */
    record Response(List<Map.Entry<String, String>> fields, byte[] body, List<Map.Entry<String, String>> trailers) {

        int status() {
            return Integer.parseInt(field(":status"));
        }

        String field(String name) {
            return fields.stream().filter(f -> f.getKey().equals(name)).map(Map.Entry::getValue).findFirst()
                    .orElse(null);
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String scheme;
    private final HpackEncoder encoder = new HpackEncoder();
    private final HpackDecoder decoder = new HpackDecoder(4096, Integer.MAX_VALUE);
    /** Every frame received, in order; guarded by itself. */
    private final List<Frame> frames = new ArrayList<>();
    private volatile boolean ackSettings = true;
    private volatile boolean goAwaySeen;
    private volatile Throwable readFailure;
    private long pings;

    private H2Client(Socket socket, String scheme) {
        this.socket = socket;
        this.scheme = scheme;
        try {
            socket.setSoTimeout(0);
            this.in = socket.getInputStream();
            this.out = socket.getOutputStream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Prior knowledge on a plaintext port: preface, SETTINGS with a large window, the server's SETTINGS acked. */
    static H2Client connect(int port) {
        return plain(port).start().read().awaitSettings();
    }

    /** A plaintext client that has sent nothing yet and does not read. */
    static H2Client plain(int port) {
        return plain(port, 0);
    }

    /** A plaintext client as {@link #plain(int)}, with a socket receive buffer of this size (0: the default). */
    static H2Client plain(int port, int receiveBuffer) {
        try {
            Socket socket = new Socket();
            if (receiveBuffer > 0) {
                socket.setReceiveBufferSize(receiveBuffer);
            }
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return new H2Client(socket, "http");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Over TLS, having agreed on {@code h2} by ALPN: preface, SETTINGS with a large window, reading. */
    static H2Client connectTls(int port) {
        SSLSocket socket = TestTls.socket(TestTls.client(), port, "localhost");
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {"h2"});
        socket.setSSLParameters(parameters);
        TestTls.handshaken(socket);
        if (!"h2".equals(socket.getApplicationProtocol())) {
            throw new AssertionError("ALPN agreed on '" + socket.getApplicationProtocol() + "', not h2");
        }
        return new H2Client(socket, "https").start().read().awaitSettings();
    }

    /** Over a socket that has just been upgraded ({@code 101} read): the client's preface still comes first. */
    static H2Client upgraded(Socket socket) {
        return new H2Client(socket, "http");
    }

    /** Sends the preface and SETTINGS with {@link #BIG_WINDOW} for streams and the connection. */
    H2Client start() {
        return start(Setting.INITIAL_WINDOW_SIZE, BIG_WINDOW).windowUpdate(0, BIG_WINDOW - 65_535);
    }

    /** Sends the preface and SETTINGS of these {@code id, value} pairs. */
    H2Client start(int... settings) {
        raw(PREFACE);
        return settings(settings);
    }

    /** Starts the reader thread. */
    H2Client read() {
        Thread.ofPlatform().daemon().name("h2client-" + socket.getLocalPort()).start(this::readLoop);
        return this;
    }

    /** Whether the server's SETTINGS are acknowledged (the default); a client that never does is a test's choice. */
    H2Client ackSettings(boolean value) {
        ackSettings = value;
        return this;
    }

    Socket socket() {
        return socket;
    }

    // ---- writing ----

    /** A request's header block: the four pseudo-fields first, then {@code fields} as name, value pairs. */
    byte[] block(String method, String path, String... fields) {
        synchronized (encoder) {
            encoder.start().field(":method", method).field(":scheme", scheme).field(":path", path)
                    .field(":authority", "localhost");
            for (int i = 0; i < fields.length; i += 2) {
                encoder.field(fields[i], fields[i + 1]);
            }
            return Arrays.copyOf(encoder.bytes(), encoder.length());
        }
    }

    /** A header block of {@code fields} alone (name, value pairs), such as trailers. */
    byte[] fieldBlock(String... fields) {
        synchronized (encoder) {
            encoder.start();
            for (int i = 0; i < fields.length; i += 2) {
                encoder.field(fields[i], fields[i + 1]);
            }
            return Arrays.copyOf(encoder.bytes(), encoder.length());
        }
    }

    /** HEADERS with END_HEADERS carrying a request head. */
    H2Client request(int stream, String method, String path, boolean endStream, String... fields) {
        return headers(stream, block(method, path, fields), endStream, true);
    }

    H2Client get(int stream, String path) {
        return request(stream, "GET", path, true);
    }

    H2Client headers(int stream, byte[] block, boolean endStream, boolean endHeaders) {
        return frame(FrameType.HEADERS, (endStream ? Flags.END_STREAM : 0) | (endHeaders ? Flags.END_HEADERS : 0),
                stream, block);
    }

    H2Client continuation(int stream, byte[] fragment, boolean endHeaders) {
        return frame(FrameType.CONTINUATION, endHeaders ? Flags.END_HEADERS : 0, stream, fragment);
    }

    /** DATA frames of at most 16,384 bytes; the last one ends the stream when {@code endStream}. */
    H2Client data(int stream, byte[] bytes, boolean endStream) {
        int offset = 0;
        do {
            int count = Math.min(16_384, bytes.length - offset);
            boolean last = offset + count == bytes.length;
            frame(FrameType.DATA, last && endStream ? Flags.END_STREAM : 0, stream,
                    Arrays.copyOfRange(bytes, offset, offset + count));
            offset += count;
        } while (offset < bytes.length);
        return this;
    }

    H2Client rst(int stream, ErrorCode code) {
        return frame(FrameType.RST_STREAM, 0, stream, int32(code.code()));
    }

    H2Client ping(long data) {
        return frame(FrameType.PING, 0, 0, ByteBuffer.allocate(8).putLong(data).array());
    }

    /** SETTINGS of {@code id, value} pairs. */
    H2Client settings(int... pairs) {
        ByteBuffer payload = ByteBuffer.allocate(pairs.length * 3);
        for (int i = 0; i < pairs.length; i += 2) {
            payload.putShort((short) pairs[i]).putInt(pairs[i + 1]);
        }
        return frame(FrameType.SETTINGS, 0, 0, payload.array());
    }

    H2Client windowUpdate(int stream, int increment) {
        return frame(FrameType.WINDOW_UPDATE, 0, stream, int32(increment));
    }

    H2Client priority(int stream, int dependsOn) {
        return frame(FrameType.PRIORITY, 0, stream, ByteBuffer.allocate(5).putInt(dependsOn).put((byte) 15).array());
    }

    H2Client frame(int type, int flags, int stream, byte[] payload) {
        byte[] frame = new byte[9 + payload.length];
        ByteBuffer.wrap(frame).put((byte) (payload.length >>> 16)).putShort((short) payload.length)
                .put((byte) type).put((byte) flags).putInt(stream).put(payload);
        return raw(frame);
    }

    H2Client raw(byte[] bytes) {
        try {
            synchronized (out) {
                out.write(bytes);
                out.flush();
            }
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Sends {@code send.accept(i)} for i from 0 up to {@code max}, stopping early once the server's GOAWAY has
     * arrived or a write fails (the server closed).
     *
     * @return how many were sent
     */
    int flood(int max, IntConsumer send) {
        for (int i = 0; i < max; i++) {
            if (goAwaySeen) {
                return i;
            }
            try {
                send.accept(i);
            } catch (UncheckedIOException closed) {
                return i;
            }
        }
        return max;
    }

    // ---- reading ----

    /** Waits for the first frame (from the start of the connection) that matches. */
    Frame await(String what, Predicate<Frame> matches) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        synchronized (frames) {
            while (true) {
                for (Frame frame : frames) {
                    if (matches.test(frame)) {
                        return frame;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("No " + what + " within " + WAIT.toSeconds() + " s; received " + frames,
                            readFailure);
                }
                try {
                    frames.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("Interrupted waiting for " + what, e);
                }
            }
        }
    }

    /** Waits for the server's SETTINGS (and, unless turned off, this client's ACK of them having been sent). */
    H2Client awaitSettings() {
        await("the server's SETTINGS", f -> f.type() == FrameType.SETTINGS && (f.flags() & Flags.ACK) == 0);
        return this;
    }

    /**
     * A round trip: sends a PING and waits for its ACK, so every frame the server queued before reading it has
     * arrived.
     */
    H2Client sync() {
        long data = ++pings;
        ping(data);
        byte[] expected = ByteBuffer.allocate(8).putLong(data).array();
        await("the PING ACK of " + data, f -> f.type() == FrameType.PING && (f.flags() & Flags.ACK) != 0
                && Arrays.equals(f.data(), expected));
        return this;
    }

    Frame awaitGoAway() {
        return await("GOAWAY", f -> f.type() == FrameType.GOAWAY);
    }

    Frame awaitReset(int stream) {
        return await("RST_STREAM on " + stream, f -> f.type() == FrameType.RST_STREAM && f.stream() == stream);
    }

    /** Waits until the server has closed the connection. */
    void awaitClosed() {
        await("close", f -> f.type() == CLOSED);
    }

    /** Waits for the whole response of {@code stream}; fails if the stream is reset or the connection ends first. */
    Response response(int stream) {
        Frame last = await("end of stream " + stream, f -> f.stream() == stream && (f.endStream()
                || f.type() == FrameType.RST_STREAM) || f.type() == CLOSED);
        if (last.type() != FrameType.DATA && last.type() != FrameType.HEADERS) {
            throw new AssertionError("Stream " + stream + " ended by " + last + "; received " + frames());
        }
        List<Map.Entry<String, String>> head = null;
        List<Map.Entry<String, String>> trailers = List.of();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Frame frame : frames()) {
            if (frame.stream() != stream) {
                continue;
            }
            if (frame.type() == FrameType.HEADERS) {
                if (head == null) {
                    head = frame.fields();
                } else {
                    trailers = frame.fields();
                }
            } else if (frame.type() == FrameType.DATA) {
                body.writeBytes(frame.data());
            }
        }
        return new Response(head, body.toByteArray(), trailers);
    }

    /** The frames received so far. */
    List<Frame> frames() {
        synchronized (frames) {
            return List.copyOf(frames);
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Closing a test socket that is already broken changes nothing.
        }
    }

    private void readLoop() {
        FrameParser parser = new FrameParser(FrameParser.DEFAULT_MAX_FRAME_SIZE, false, new Reader());
        byte[] buffer = new byte[32 * 1024];
        try {
            for (int count = in.read(buffer); count >= 0; count = in.read(buffer)) {
                parser.parse(ByteBuffer.wrap(buffer, 0, count));
            }
        } catch (IOException | RuntimeException e) {
            // A reset or a closed socket ends the connection as an end of stream does; anything else is kept.
            if (!(e instanceof IOException)) {
                readFailure = e;
            }
        }
        add(new Frame(CLOSED, 0, 0, 0, List.of(), new byte[0]));
    }

    private void add(Frame frame) {
        if (frame.type() == FrameType.GOAWAY) {
            goAwaySeen = true;
        }
        synchronized (frames) {
            frames.add(frame);
            frames.notifyAll();
        }
    }

    private static byte[] int32(int value) {
        return ByteBuffer.allocate(4).putInt(value).array();
    }

    /** Turns the parser's events into frames; on the reader thread. */
    private final class Reader implements FrameListener {

        private final ByteArrayOutputStream block = new ByteArrayOutputStream();
        private final ByteArrayOutputStream data = new ByteArrayOutputStream();
        private boolean blockEndsStream;

        @Override
        public void dataStart(int streamId, int flowControlled, boolean endStream) {
            data.reset();
        }

        @Override
        public void data(int streamId, ByteBuffer bytes) {
            byte[] copy = new byte[bytes.remaining()];
            bytes.get(copy);
            data.writeBytes(copy);
        }

        @Override
        public void dataEnd(int streamId, boolean endStream) {
            add(new Frame(FrameType.DATA, streamId, endStream ? Flags.END_STREAM : 0, 0, List.of(),
                    data.toByteArray()));
        }

        @Override
        public void headersStart(int streamId, boolean endStream, boolean endHeaders) {
            block.reset();
            blockEndsStream = endStream;
        }

        @Override
        public void continuationStart(int streamId, boolean endHeaders) {
        }

        @Override
        public void headerBlock(int streamId, ByteBuffer fragment) {
            byte[] copy = new byte[fragment.remaining()];
            fragment.get(copy);
            block.writeBytes(copy);
        }

        @Override
        public void headerBlockEnd(int streamId, boolean endHeaders) {
            if (!endHeaders) {
                return;
            }
            List<Map.Entry<String, String>> fields = new ArrayList<>();
            try {
                decoder.decode(ByteBuffer.wrap(block.toByteArray()),
                        (name, value) -> fields.add(Map.entry(name, value)));
            } catch (Exception malformed) {
                throw new IllegalStateException("The server sent a header block that does not decode", malformed);
            }
            add(new Frame(FrameType.HEADERS, streamId, blockEndsStream ? Flags.END_STREAM : 0, 0,
                    List.copyOf(fields), new byte[0]));
        }

        @Override
        public void priority(int streamId) {
        }

        @Override
        public void rstStream(int streamId, int errorCode) {
            add(new Frame(FrameType.RST_STREAM, streamId, 0, errorCode, List.of(), new byte[0]));
        }

        @Override
        public void settings(int[] ids, long[] values) {
            if (ackSettings) {
                try {
                    frame(FrameType.SETTINGS, Flags.ACK, 0, new byte[0]);
                } catch (UncheckedIOException closed) {
                    // The server closed: the reader will see it next.
                }
            }
            // Recorded once acknowledged, so that a test that waited for it knows no ACK will cut into its frames.
            add(new Frame(FrameType.SETTINGS, 0, 0, 0, List.of(), new byte[0]));
        }

        @Override
        public void settingsAck() {
            add(new Frame(FrameType.SETTINGS, 0, Flags.ACK, 0, List.of(), new byte[0]));
        }

        @Override
        public void ping(boolean ack, long opaqueData) {
            add(new Frame(FrameType.PING, 0, ack ? Flags.ACK : 0, 0, List.of(),
                    ByteBuffer.allocate(8).putLong(opaqueData).array()));
        }

        @Override
        public void goAway(int lastStreamId, int errorCode, ByteBuffer debugData) {
            add(new Frame(FrameType.GOAWAY, lastStreamId, 0, errorCode, List.of(),
                    Arrays.copyOfRange(debugData.array(), debugData.position(), debugData.limit())));
        }

        @Override
        public void windowUpdate(int streamId, int increment) {
            add(new Frame(FrameType.WINDOW_UPDATE, streamId, 0, increment, List.of(), new byte[0]));
        }

        @Override
        public void unknownFrame(int type, int streamId, int length) {
            add(new Frame(type, streamId, 0, 0, List.of(), new byte[0]));
        }

        @Override
        public void streamError(Http2Exception error) {
            throw error;
        }
    }
}
