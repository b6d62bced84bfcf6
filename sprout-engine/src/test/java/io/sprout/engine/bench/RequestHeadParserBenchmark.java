package io.sprout.engine.bench;

import io.sprout.engine.http.ParserLimits;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.http.RequestHeadParser;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time and allocation of parsing one request head, for a wrk-style GET and a browser-like GET with ten fields,
 * each with a fresh parser (a new connection) and with one parser reused (keep-alive, where the parser's cache of
 * the previous request's strings applies).
 *
 * <p>Not a test; run it from the repository root with the {@code jmh} profile of the engine pom:
 * <pre>
 * ./mvnw -B -ntp -pl sprout-engine -Pjmh test-compile exec:exec
 * ./mvnw -B -ntp -pl sprout-engine -Pjmh test-compile exec:exec \
 *     -Djmh.args="RequestHeadParserBenchmark -prof gc -f 1 -wi 3 -w 2s -i 5 -r 2s"
 * </pre>
 * {@code gc.alloc.rate.norm} in the output is bytes allocated per parsed head.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RequestHeadParserBenchmark {

    /** What wrk sends by default. */
    static final String WRK_GET = "GET / HTTP/1.1\r\nHost: localhost:8080\r\n\r\n";

    /** A page load as a current desktop browser sends it. */
    static final String BROWSER_GET = "GET /products/42?ref=home HTTP/1.1\r\n"
            + "Host: shop.example.com\r\n"
            + "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0\r\n"
            + "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n"
            + "Accept-Language: en-GB,en;q=0.5\r\n"
            + "Accept-Encoding: gzip, deflate, br, zstd\r\n"
            + "Connection: keep-alive\r\n"
            + "Cookie: session=4f2a9c1e7b3d; theme=dark; consent=yes\r\n"
            + "Upgrade-Insecure-Requests: 1\r\n"
            + "Sec-Fetch-Dest: document\r\n"
            + "Sec-Fetch-Mode: navigate\r\n"
            + "\r\n";

    private ByteBuffer wrk;
    private ByteBuffer browser;
    private RequestHeadParser keepAliveParser;

    @Setup
    public void setUp() {
        wrk = ByteBuffer.wrap(WRK_GET.getBytes(StandardCharsets.ISO_8859_1));
        browser = ByteBuffer.wrap(BROWSER_GET.getBytes(StandardCharsets.ISO_8859_1));
        keepAliveParser = new RequestHeadParser(ParserLimits.DEFAULT);
        check(new RequestHeadParser(ParserLimits.DEFAULT).parse(wrk.clear()));
        check(new RequestHeadParser(ParserLimits.DEFAULT).parse(browser.clear()));
    }

    @Benchmark
    public RequestHead wrkGetFreshParser() {
        return new RequestHeadParser(ParserLimits.DEFAULT).parse(wrk.clear());
    }

    @Benchmark
    public RequestHead wrkGetKeepAlive() {
        return keepAliveParser.parse(wrk.clear());
    }

    @Benchmark
    public RequestHead browserGetFreshParser() {
        return new RequestHeadParser(ParserLimits.DEFAULT).parse(browser.clear());
    }

    @Benchmark
    public RequestHead browserGetKeepAlive() {
        return keepAliveParser.parse(browser.clear());
    }

    private static void check(RequestHead head) {
        if (head == null) {
            throw new IllegalStateException("benchmark request did not parse");
        }
    }
}
