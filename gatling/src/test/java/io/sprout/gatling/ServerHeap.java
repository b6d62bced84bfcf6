package io.sprout.gatling;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The server's heap, collected before a measured phase: {@code jcmd <serverPid> GC.run}, when the runner names the
 * server's process ({@code -DserverPid}) and the JDK's {@code jcmd} ({@code -Djcmd}).
 * <p>
 * Why: the servers run on one CPU with Serial GC, and with 10,000 sessions open a young collection copies every
 * session's live objects, pausing the server for 0.5-0.7 s. Whether that pause falls inside a round's broadcasts or
 * before them was chance, and it alone split every server's rounds into a p99 of about 600 ms or about 1,200 ms.
 * Starting every server's broadcasts from a collected heap measures the servers, not where their last collection fell.
 */
final class ServerHeap {

    private final String jcmd;
    private final String pid;
    private volatile Result result = Result.OFF;

    /** What {@link #collect()} did: off (not asked for), yes (collected), no (jcmd failed; the reason printed). */
    enum Result {
        OFF, YES, NO
    }

    private ServerHeap(String jcmd, String pid) {
        this.jcmd = jcmd;
        this.pid = pid;
    }

    static ServerHeap fromSystemProperties() {
        return new ServerHeap(System.getProperty("jcmd", ""), System.getProperty("serverPid", ""));
    }

    /**
     * Blocks until the server's full collection ended; does nothing unless asked for. An unanswered attach ends in
     * jcmd's own time-out ({@code sun.tools.attach.attachTimeout}, 10 s).
     */
    void collect() {
        if (this.pid.isEmpty() || this.jcmd.isEmpty()) {
            return;
        }
        try {
            Process process = new ProcessBuilder(this.jcmd, this.pid, "GC.run").redirectErrorStream(true).start();
            byte[] output = process.getInputStream().readAllBytes();
            int status = process.waitFor();
            if (status == 0) {
                this.result = Result.YES;
                return;
            }
            fail("exit status " + status + ": " + new String(output, StandardCharsets.UTF_8));
        }
        catch (IOException ex) {
            fail(ex.toString());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            fail("interrupted");
        }
    }

    private void fail(String reason) {
        this.result = Result.NO;
        System.out.println("server-heap: jcmd " + this.pid + " GC.run failed: " + reason.strip());
    }

    /** For the simulation's summary line: {@code off}, {@code yes} or {@code no}. */
    String collected() {
        return this.result.name().toLowerCase(Locale.ROOT);
    }

}
