package io.sprout.engine.exchange;

import io.sprout.engine.http.BodyFraming;
import io.sprout.engine.http.HeaderNames;
import io.sprout.engine.http.HttpException;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.http.RequestRules;

import java.io.IOException;
import java.lang.System.Logger.Level;

/**
 * One request/response lifecycle, on a worker: check the head, call the handler, complete the response, then
 * drain the unread request body so the connection can be reused. Failures map to outcomes here, once:
 * a rejected head is answered and closed; a handler exception before commit becomes a 500; anything after
 * commit, or a client gone mid-exchange, aborts the connection.
 */
final class Exchange {

    private static final System.Logger LOG = System.getLogger(Exchange.class.getName());

    private final HttpConnection connection;
    private final RequestHead head;
    private final ServerContext context;

    Exchange(HttpConnection connection, RequestHead head) {
        this.connection = connection;
        this.head = head;
        this.context = connection.context();
    }

    Outcome run() {
        Counters counters = context.counters();
        counters.requestsTotal.increment();
        BodyFraming framing;
        try {
            framing = RequestRules.validate(head, context.config().limits().maxRequestBodySize());
        } catch (HttpException rejected) {
            return answerError(rejected.status());
        }
        boolean expectContinue = framing.declaredLength() != 0 && RequestRules.expectsContinue(head);
        RequestBody body = new RequestBody(connection, framing, expectContinue);
        ExchangeResponse response = new ExchangeResponse(connection, head, body);
        counters.requestsActive.increment();
        try {
            return handle(new ExchangeRequest(head, body, framing.declaredLength(), connection.channel()), body,
                    response);
        } finally {
            response.responseBody().release();
            counters.requestsActive.decrement();
            context.shutdown().exchangeEnded();
        }
    }

    private Outcome handle(ExchangeRequest request, RequestBody body, ExchangeResponse response) {
        try {
            try {
                context.handler().handle(request, response);
            } catch (Exception | LinkageError | AssertionError handlerFailure) {
                if (body.failure() == null && !body.timedOut() && !isClientGone(handlerFailure)
                        && !(handlerFailure instanceof InterruptedException)) {
                    LOG.log(Level.WARNING, "Handler failed for " + head.method() + " " + head.target(),
                            handlerFailure);
                }
                if (response.committed()) {
                    return Outcome.ABORT;
                }
                response.reset();
                response.status(500);
                response.headers().set(HeaderNames.CONNECTION, "close");
            }
            int bodyError = body.failure() != null ? body.failure().status() : body.timedOut() ? 408 : 0;
            if (bodyError != 0) {
                return response.committed() ? Outcome.ABORT : answerError(bodyError);
            }
            response.responseBody().complete();
            if (!response.keepAlive()) {
                return Outcome.CLOSE;
            }
            return body.drain(context.config().limits().maxDrainSize()) ? Outcome.KEEP_ALIVE : Outcome.CLOSE;
        } catch (IOException clientGone) {
            LOG.log(Level.DEBUG, "Connection lost during " + head.method() + " " + head.target(), clientGone);
            return Outcome.ABORT;
        }
    }

    private Outcome answerError(int status) {
        try {
            connection.sendError(new HttpException(status, ""));
        } catch (IOException clientGone) {
            LOG.log(Level.DEBUG, "Could not send " + status + ": " + clientGone);
        }
        return Outcome.CLOSE;
    }

    private static boolean isClientGone(Throwable failure) {
        return failure instanceof IOException;
    }
}
