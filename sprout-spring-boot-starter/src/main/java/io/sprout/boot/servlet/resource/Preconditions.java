package io.sprout.boot.servlet.resource;

/**
 * The conditional request rules of RFC 9110 §13.2.2 for a resource that exists, as one pure function: {@code
 * If-Match}, else {@code If-Unmodified-Since} (412 when false); then {@code If-None-Match}, else {@code
 * If-Modified-Since} for GET and HEAD (304 when false, or 412 for other methods when {@code If-None-Match} matches).
 * Dates compare at whole seconds, the precision of an HTTP date.
 */
final class Preconditions {

    enum Outcome { PROCEED, NOT_MODIFIED, PRECONDITION_FAILED }

    /**
     * The request's conditional headers; a date is -1 when absent or not a valid HTTP date (such a header is
     * ignored, as RFC 9110 requires).
     */
    record Request(String method, String ifMatch, String ifNoneMatch, long ifModifiedSince,
            long ifUnmodifiedSince) {
    }

    private Preconditions() {
    }

    static Outcome evaluate(Request request, String etag, long lastModified) {
        long modifiedSecond = lastModified / 1000;
        if (request.ifMatch() != null) {
            if (!EntityTags.listMatches(request.ifMatch(), etag, true)) {
                return Outcome.PRECONDITION_FAILED;
            }
        } else if (request.ifUnmodifiedSince() >= 0 && modifiedSecond > request.ifUnmodifiedSince() / 1000) {
            return Outcome.PRECONDITION_FAILED;
        }
        boolean readOnly = request.method().equals("GET") || request.method().equals("HEAD");
        if (request.ifNoneMatch() != null) {
            if (EntityTags.listMatches(request.ifNoneMatch(), etag, false)) {
                return readOnly ? Outcome.NOT_MODIFIED : Outcome.PRECONDITION_FAILED;
            }
        } else if (readOnly && request.ifModifiedSince() >= 0
                && modifiedSecond <= request.ifModifiedSince() / 1000) {
            return Outcome.NOT_MODIFIED;
        }
        return Outcome.PROCEED;
    }
}
