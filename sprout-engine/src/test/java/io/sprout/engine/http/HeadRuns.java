package io.sprout.engine.http;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Runs of a {@link RequestHeadParser} over pieces of input, with results that compare by value. */
final class HeadRuns {

    /** The outcome of parsing: heads in order, then either a rejection or whatever bytes were left. */
    record Result(List<Head> heads, int rejectedWith, String leftover) {

        Head only() {
            if (heads.size() != 1 || rejectedWith != 0) {
                throw new AssertionError("expected exactly one head, got " + this);
            }
            return heads.getFirst();
        }
    }

    /** A head rendered as values: the fields as {@code name: value} in order. */
    record Head(String method, String target, HttpVersion version, List<String> fields) {

        static Head of(RequestHead head) {
            HeaderFields headers = head.headers();
            List<String> fields = new ArrayList<>(headers.size());
            for (int i = 0; i < headers.size(); i++) {
                fields.add(headers.name(i) + ": " + headers.value(i));
            }
            return new Head(head.method(), head.target(), head.version(), List.copyOf(fields));
        }
    }

    private HeadRuns() {
    }

    /** Parses one head with a fresh parser; the bytes after it (a body, a pipelined request) are the leftover. */
    static Result parseOne(ParserLimits limits, List<ByteBuffer> pieces) {
        RequestHeadParser parser = new RequestHeadParser(limits);
        for (int p = 0; p < pieces.size(); p++) {
            ByteBuffer piece = pieces.get(p);
            RequestHead head;
            try {
                head = parser.parse(piece);
            } catch (HttpException e) {
                return new Result(List.of(), e.status(), "");
            }
            if (head != null) {
                return new Result(List.of(Head.of(head)), 0, Feedings.leftover(piece, pieces.subList(p + 1, pieces.size())));
            }
            requireConsumed(piece);
        }
        return new Result(List.of(), 0, "");
    }

    /** Parses pipelined heads one after another with the same parser, until the input ends or is rejected. */
    static Result parseAll(ParserLimits limits, List<ByteBuffer> pieces) {
        RequestHeadParser parser = new RequestHeadParser(limits);
        List<Head> heads = new ArrayList<>();
        // Tracked here rather than through parser.inProgress(), so this helper does not depend on what it tests.
        boolean partial = false;
        for (ByteBuffer piece : pieces) {
            while (piece.hasRemaining()) {
                RequestHead head;
                try {
                    head = parser.parse(piece);
                } catch (HttpException e) {
                    return new Result(List.copyOf(heads), e.status(), "");
                }
                if (head == null) {
                    requireConsumed(piece);
                    partial = true;
                } else {
                    heads.add(Head.of(head));
                    partial = false;
                }
            }
        }
        return new Result(List.copyOf(heads), 0, partial ? "(partial head)" : "");
    }

    private static void requireConsumed(ByteBuffer piece) {
        if (piece.hasRemaining()) {
            throw new AssertionError("parse returned null but left " + piece.remaining() + " bytes unread");
        }
    }
}
