package io.sprout.engine.exchange;

import static io.sprout.engine.exchange.ResponseFraming.CHUNKED;
import static io.sprout.engine.exchange.ResponseFraming.CLOSE_DELIMITED;
import static io.sprout.engine.exchange.ResponseFraming.FIXED;
import static io.sprout.engine.exchange.ResponseFraming.NONE;
import static io.sprout.engine.exchange.ResponseFraming.RAW;
import static org.assertj.core.api.Assertions.assertThat;

import io.sprout.engine.http.HttpVersion;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The commit decision as a table: each row changes one fact of an ordinary HTTP/1.1 {@code GET} answered with a
 * complete 13-byte body (kept alive, {@code Content-Length: 13}) and names the rule that makes its plan differ.
 *
 * <p>The server's own reasons to refuse keep-alive (draining, the keep-alive request limit, an unanswered
 * {@code Expect: 100-continue}, a saturated pool) reach the plan as the one fact {@code serverAllowsKeepAlive};
 * {@link ServerKeepAliveTest} checks that each of them sets it.
 */
class ResponsePlanTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void decidesFramingLengthAndKeepAlive(String rule, Given given, ResponsePlan expected) {
        assertThat(ResponsePlan.decide(given.facts())).as(rule).isEqualTo(expected);
    }

    static Stream<Arguments> rows() {
        return Stream.of(
                row("a complete body has a known length and the connection stays open",
                        given(), plan(FIXED, 13, true, null)),
                row("an empty complete body still declares its length",
                        given().bodyBytes(0), plan(FIXED, 0, true, null)),
                row("a declared length frames an incomplete body",
                        given().incomplete().declaredLength(1000), plan(FIXED, 1000, true, null)),
                row("HTTP/1.1 chunks an incomplete body of unknown length",
                        given().incomplete(), plan(CHUNKED, -1, true, null)),
                row("HTTP/1.0 cannot chunk: the close delimits the body, so keep-alive is off",
                        given().http10().incomplete(), plan(CLOSE_DELIMITED, -1, false, "close")),
                row("HTTP/1.0 with keep-alive is answered with Connection: keep-alive",
                        given().http10(), plan(FIXED, 13, true, "keep-alive")),
                row("HTTP/1.0 without keep-alive closes",
                        given().http10().clientWantsClose(), plan(FIXED, 13, false, "close")),
                row("HTTP/1.1 with Connection: close closes",
                        given().clientWantsClose(), plan(FIXED, 13, false, "close")),
                row("the handler's Connection: close is honoured",
                        given().handlerSaysClose(), plan(FIXED, 13, false, "close")),
                row("the server refusing keep-alive closes",
                        given().serverRefusesKeepAlive(), plan(FIXED, 13, false, "close")),
                row("a body encoding hides the length, so a complete body is chunked",
                        given().compressed(), plan(CHUNKED, -1, true, null)),
                row("a body encoding drops the declared length too",
                        given().compressed().declaredLength(13), plan(CHUNKED, -1, true, null)),
                row("an encoded body on HTTP/1.0 is close-delimited",
                        given().http10().compressed(), plan(CLOSE_DELIMITED, -1, false, "close")),
                row("HEAD announces the length a GET would have, without a body",
                        given().head(), plan(NONE, 13, true, null)),
                row("HEAD keeps the handler's declared length",
                        given().head().incomplete().declaredLength(42), plan(NONE, 42, true, null)),
                row("HEAD of an incomplete body announces no length",
                        given().head().incomplete(), plan(NONE, -1, true, null)),
                row("HEAD on HTTP/1.0 needs no close to delimit its absent body",
                        given().http10().head().incomplete(), plan(NONE, -1, true, "keep-alive")),
                row("204 has no body and no length, even a declared one",
                        given().status(204).declaredLength(13), plan(NONE, -1, true, null)),
                row("304 keeps a declared length (that of the representation)",
                        given().status(304).declaredLength(42), plan(NONE, 42, true, null)),
                row("304 without a declared length announces none",
                        given().status(304), plan(NONE, -1, true, null)),
                row("a 1xx status has no body and no length",
                        given().status(103).declaredLength(13), plan(NONE, -1, true, null)),
                row("101 hands the raw connection over and leaves Connection to the handler",
                        given().status(101), plan(RAW, -1, false, null)),
                row("101 is raw even when everything else says close",
                        given().status(101).clientWantsClose().serverRefusesKeepAlive().handlerSaysClose(),
                        plan(RAW, -1, false, null)));
    }

    private static Arguments row(String rule, Given given, ResponsePlan expected) {
        return Arguments.of(rule, given, expected);
    }

    private static ResponsePlan plan(ResponseFraming framing, long contentLength, boolean keepAlive,
            String connection) {
        return new ResponsePlan(framing, contentLength, keepAlive, connection);
    }

    private static Given given() {
        return new Given(HttpVersion.HTTP_1_1, false, 200, -1, true, 13, false, false, true, true);
    }

    /** The facts of one row, changed one at a time from the ordinary case. */
    record Given(HttpVersion version, boolean headRequest, int status, long declaredLength, boolean complete,
            long bodyBytes, boolean encoded, boolean handlerSaidClose, boolean clientWantsKeepAlive,
            boolean serverAllowsKeepAlive) {

        ResponseFacts facts() {
            return new ResponseFacts(version, headRequest, status, declaredLength, complete, bodyBytes, encoded,
                    handlerSaidClose, clientWantsKeepAlive, serverAllowsKeepAlive);
        }

        Given http10() {
            return new Given(HttpVersion.HTTP_1_0, headRequest, status, declaredLength, complete, bodyBytes, encoded,
                    handlerSaidClose, clientWantsKeepAlive, serverAllowsKeepAlive);
        }

        Given head() {
            return new Given(version, true, status, declaredLength, complete, bodyBytes, encoded, handlerSaidClose,
                    clientWantsKeepAlive, serverAllowsKeepAlive);
        }

        Given status(int value) {
            return new Given(version, headRequest, value, declaredLength, complete, bodyBytes, encoded,
                    handlerSaidClose, clientWantsKeepAlive, serverAllowsKeepAlive);
        }

        Given declaredLength(long value) {
            return new Given(version, headRequest, status, value, complete, bodyBytes, encoded, handlerSaidClose,
                    clientWantsKeepAlive, serverAllowsKeepAlive);
        }

        /** The handler is still writing: the bytes so far are not the whole body. */
        Given incomplete() {
            return new Given(version, headRequest, status, declaredLength, false, bodyBytes, encoded,
                    handlerSaidClose, clientWantsKeepAlive, serverAllowsKeepAlive);
        }

        Given bodyBytes(long value) {
            return new Given(version, headRequest, status, declaredLength, complete, value, encoded,
                    handlerSaidClose, clientWantsKeepAlive, serverAllowsKeepAlive);
        }

        Given compressed() {
            return new Given(version, headRequest, status, declaredLength, complete, bodyBytes, true,
                    handlerSaidClose, clientWantsKeepAlive, serverAllowsKeepAlive);
        }

        Given handlerSaysClose() {
            return new Given(version, headRequest, status, declaredLength, complete, bodyBytes, encoded, true,
                    clientWantsKeepAlive, serverAllowsKeepAlive);
        }

        Given clientWantsClose() {
            return new Given(version, headRequest, status, declaredLength, complete, bodyBytes, encoded,
                    handlerSaidClose, false, serverAllowsKeepAlive);
        }

        Given serverRefusesKeepAlive() {
            return new Given(version, headRequest, status, declaredLength, complete, bodyBytes, encoded,
                    handlerSaidClose, clientWantsKeepAlive, false);
        }
    }
}
