package io.sprout.engine.contract;

import io.sprout.engine.RequestHandler;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.HttpResponse;
import io.sprout.engine.server.Sprout;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

/** The handler behind the contract suite: one small behaviour per path. */
final class ContractHandler implements RequestHandler {

    @Override
    public void handle(HttpRequest request, HttpResponse response) throws Exception {
        String query = request.query() == null ? "" : request.query();
        switch (request.path()) {
            case "/hello" -> text(response, "Hello, World!");
            case "/query" -> text(response, query);
            case "/digest" -> digest(request, response);
            case "/echo" -> request.body().transferTo(response.body());
            case "/stream" -> stream(response, Long.parseLong(query));
            case "/sleep" -> {
                Thread.sleep(Long.parseLong(query));
                text(response, "slept");
            }
            case "/fail-before" -> throw new IllegalStateException("handler failed before commit");
            case "/fail-after" -> {
                response.body().write(new byte[100_000]);
                response.body().flush();
                throw new IllegalStateException("handler failed after commit");
            }
            case "/no-content" -> response.status(204);
            case "/ignore-body" -> text(response, "ignored");
            case "/send-trailers" -> {
                response.trailers(() -> Sprout.headers().add("X-Checksum", "42").add("X-Count", query));
                text(response, "with trailers");
            }
            case "/trailers" -> {
                request.body().readAllBytes();
                text(response, request.trailers().get("X-Checksum"));
            }
            default -> {
                response.status(404);
                text(response, "no such path");
            }
        }
    }

    static byte patternByte(long index) {
        return (byte) ('a' + index % 26);
    }

    private static void text(HttpResponse response, String text) throws Exception {
        response.headers().set("Content-Type", "text/plain");
        response.body().write(text.getBytes(StandardCharsets.UTF_8));
    }

    private static void digest(HttpRequest request, HttpResponse response) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        byte[] chunk = new byte[8192];
        long total = 0;
        InputStream body = request.body();
        for (int count = body.read(chunk); count >= 0; count = body.read(chunk)) {
            sha.update(chunk, 0, count);
            total += count;
        }
        text(response, total + " " + HexFormat.of().formatHex(sha.digest()));
    }

    private static void stream(HttpResponse response, long size) throws Exception {
        byte[] chunk = new byte[8192];
        OutputStream body = response.body();
        for (long written = 0; written < size; ) {
            int count = (int) Math.min(chunk.length, size - written);
            for (int i = 0; i < count; i++) {
                chunk[i] = patternByte(written + i);
            }
            body.write(chunk, 0, count);
            written += count;
        }
    }
}
