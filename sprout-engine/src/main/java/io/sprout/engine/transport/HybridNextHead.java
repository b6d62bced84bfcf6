package io.sprout.engine.transport;

import io.sprout.engine.exchange.HttpConnection;
import io.sprout.engine.exec.Workers;
import io.sprout.engine.http.RequestHead;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;

/**
 * Hybrid mode's keep-alive: after a response, the worker that served a plaintext connection waits on it a moment
 * ({@code ServerConfig.hybridKeepAliveWait}), still in blocking mode, for the next head, as a thread per connection
 * does, before it hands the connection back to its loop.
 *
 * <p>Under load the next request follows the response within a fraction of a millisecond, and handing back costs
 * every request a loop wake-up, a selection key cancelled and registered again, two switches of blocking mode and a
 * hand-off to another worker: per {@code /benchmark/hello} under wrk, hybrid made 3.0 futex, 3.9 fcntl and 2.0
 * epoll_ctl calls where nio made 1.7, 0 and 0 ({@code strace -c}). It waits only while a worker is spare (virtual
 * threads, or a platform pool with a thread idle), so no connection waits for a worker that waits on an idle one;
 * and not over TLS, whose records the loop's reader must see whole.
 */
final class HybridNextHead {

    private final SocketIo raw;
    private final HttpConnection http;
    private final HeadWait waiting;
    private final Workers workers;
    private final long waitMillis;

    HybridNextHead(SocketIo raw, HttpConnection http, HeadWait waiting, Workers workers) {
        this.raw = raw;
        this.http = http;
        this.waiting = waiting;
        this.workers = workers;
        this.waitMillis = http.context().config().hybridKeepAliveWait().toMillis();
    }

    /**
     * Reads what arrives within the wait; the head when that completes one, else {@code null} (nothing came, part
     * of a head, the client closed, or the socket failed), and the loop takes over from what is buffered.
     */
    RequestHead await() {
        if (!raw.blocking() || workers.max() >= 0 && workers.busy() >= workers.max()
                || http.context().shutdown().draining()) {
            return null;
        }
        ByteBuffer target = http.inbound().beforeRead();
        raw.readTimeout(waitMillis);
        int count;
        try {
            count = raw.read(target);
        } catch (SocketTimeoutException quiet) {
            count = 0;
        } catch (IOException failed) {
            // Reset or closed: the loop finds out on its own read and closes the connection.
            count = 0;
        }
        http.inbound().afterRead(count);
        if (count <= 0) {
            return null;
        }
        waiting.received(System.nanoTime(), count);
        RequestHead head = http.parseBuffered();
        if (head != null) {
            waiting.ended();
        }
        return head;
    }
}
