package io.sprout.boot.servlet.resource;

import io.sprout.boot.servlet.resource.Preconditions.Outcome;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** RFC 9110 §13.2.2, rule by rule, for a resource with one strong tag, modified at a whole second plus 500 ms. */
class PreconditionsTest {

    private static final String ETAG = "\"18f-3e8\"";
    private static final long MODIFIED = 1_700_000_000_500L;
    private static final long SAME_SECOND = 1_700_000_000_000L;
    private static final long EARLIER = SAME_SECOND - 1000;
    private static final long NONE = -1;

    private static Outcome evaluate(String method, String ifMatch, String ifNoneMatch, long ifModifiedSince,
            long ifUnmodifiedSince) {
        return Preconditions.evaluate(new Preconditions.Request(method, ifMatch, ifNoneMatch, ifModifiedSince,
                ifUnmodifiedSince), ETAG, MODIFIED);
    }

    @Test
    void proceedsWithoutConditions() {
        assertThat(evaluate("GET", null, null, NONE, NONE)).isEqualTo(Outcome.PROCEED);
    }

    @Test
    void ifNoneMatchComparesWeaklyAndGivesNotModifiedToReads() {
        assertThat(evaluate("GET", null, ETAG, NONE, NONE)).isEqualTo(Outcome.NOT_MODIFIED);
        assertThat(evaluate("HEAD", null, "W/" + ETAG, NONE, NONE)).isEqualTo(Outcome.NOT_MODIFIED);
        assertThat(evaluate("GET", null, "\"other\", " + ETAG, NONE, NONE)).isEqualTo(Outcome.NOT_MODIFIED);
        assertThat(evaluate("GET", null, "*", NONE, NONE)).isEqualTo(Outcome.NOT_MODIFIED);
        assertThat(evaluate("GET", null, "\"other\"", NONE, NONE)).isEqualTo(Outcome.PROCEED);
        assertThat(evaluate("POST", null, ETAG, NONE, NONE)).isEqualTo(Outcome.PRECONDITION_FAILED);
    }

    @Test
    void ifModifiedSinceComparesWholeSecondsAndOnlyForReads() {
        assertThat(evaluate("GET", null, null, SAME_SECOND, NONE)).isEqualTo(Outcome.NOT_MODIFIED);
        assertThat(evaluate("GET", null, null, EARLIER, NONE)).isEqualTo(Outcome.PROCEED);
        assertThat(evaluate("POST", null, null, SAME_SECOND, NONE)).isEqualTo(Outcome.PROCEED);
    }

    @Test
    void ifNoneMatchTakesPrecedenceOverIfModifiedSince() {
        assertThat(evaluate("GET", null, "\"other\"", SAME_SECOND, NONE)).isEqualTo(Outcome.PROCEED);
    }

    @Test
    void ifMatchComparesStronglyAndFailsThePrecondition() {
        assertThat(evaluate("GET", ETAG, null, NONE, NONE)).isEqualTo(Outcome.PROCEED);
        assertThat(evaluate("PUT", "*", null, NONE, NONE)).isEqualTo(Outcome.PROCEED);
        assertThat(evaluate("GET", "W/" + ETAG, null, NONE, NONE)).isEqualTo(Outcome.PRECONDITION_FAILED);
        assertThat(evaluate("GET", "\"other\"", null, NONE, NONE)).isEqualTo(Outcome.PRECONDITION_FAILED);
    }

    @Test
    void ifUnmodifiedSinceFailsWhenModifiedLaterAndYieldsToIfMatch() {
        assertThat(evaluate("GET", null, null, NONE, EARLIER)).isEqualTo(Outcome.PRECONDITION_FAILED);
        assertThat(evaluate("GET", null, null, NONE, SAME_SECOND)).isEqualTo(Outcome.PROCEED);
        assertThat(evaluate("GET", ETAG, null, NONE, EARLIER)).isEqualTo(Outcome.PROCEED);
    }

    @Test
    void ifMatchIsCheckedBeforeIfNoneMatch() {
        assertThat(evaluate("GET", "\"other\"", ETAG, NONE, NONE)).isEqualTo(Outcome.PRECONDITION_FAILED);
    }

    @Test
    void parsesTagListsWithCommasInsideQuotesAndSkipsGarbage() {
        assertThat(EntityTags.parseList("\"a,b\", W/\"c\" ,junk, \"d\"")).containsExactly("\"a,b\"", "W/\"c\"",
                "\"d\"");
        assertThat(EntityTags.parseList("\"unterminated")).isEmpty();
    }
}
