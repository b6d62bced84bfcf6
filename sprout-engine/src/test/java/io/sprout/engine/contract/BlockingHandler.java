package io.sprout.engine.contract;

import io.sprout.engine.RequestHandler;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.HttpResponse;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/**
 * The contract handler plus {@code /block}, which holds its worker until the test releases it: a busy worker or an
 * in-flight request the test controls without guessing durations.
 */
final class BlockingHandler implements RequestHandler {

    private final ContractHandler contract = new ContractHandler();
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    @Override
    public void handle(HttpRequest request, HttpResponse response) throws Exception {
        if (!"/block".equals(request.path())) {
            contract.handle(request, response);
            return;
        }
        entered.countDown();
        release.await();
        byte[] body = "released".getBytes(StandardCharsets.US_ASCII);
        response.headers().set("Content-Length", Integer.toString(body.length));
        response.body().write(body);
    }

    /** Waits until a {@code /block} request holds its worker. */
    void awaitBlocked() {
        Await.latch(entered, "a /block request holds its worker");
    }

    void release() {
        release.countDown();
    }
}
