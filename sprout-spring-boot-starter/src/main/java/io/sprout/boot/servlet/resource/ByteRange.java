package io.sprout.boot.servlet.resource;

/** What part of a resource to send, as {@link RangeHeader} decides from a {@code Range} header. */
sealed interface ByteRange {

    /** Send everything with 200. */
    record Whole() implements ByteRange {
    }

    /** Send bytes {@code first} to {@code last} inclusive with 206. */
    record Part(long first, long last) implements ByteRange {

        long length() {
            return last - first + 1;
        }

        String contentRange(long total) {
            return "bytes " + first + "-" + last + "/" + total;
        }
    }

    /** Nothing of the resource is in the range: 416 with {@code Content-Range: bytes *}{@code /total}. */
    record Unsatisfiable() implements ByteRange {
    }
}
