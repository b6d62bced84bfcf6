package io.sprout.boot.compression;

import io.sprout.engine.HttpRequest;
import io.sprout.engine.HttpResponse;
import io.sprout.engine.RequestHandler;

/**
 * Compresses the responses of a handler that knows nothing of compression (the reactive adapter) as
 * {@code server.compression.*} says: the decision is taken as each response commits, when its status, content type
 * and (for a body written whole) length are known. The servlet layer decides in its own commit listener instead,
 * where the servlet response's headers become the engine's.
 */
public final class CompressingRequestHandler implements RequestHandler {

    private final CompressionPolicy policy;
    private final RequestHandler delegate;

    public CompressingRequestHandler(CompressionPolicy policy, RequestHandler delegate) {
        this.policy = policy;
        this.delegate = delegate;
    }

    @Override
    public void handle(HttpRequest request, HttpResponse response) throws Exception {
        String acceptEncoding = request.headers().get("Accept-Encoding");
        if (acceptEncoding != null) {
            String userAgent = request.headers().get("User-Agent");
            response.beforeCommit((complete, buffered) -> policy.compress(response, acceptEncoding, userAgent,
                    declaredLength(response, complete, buffered)));
        }
        delegate.handle(request, response);
    }

    private static long declaredLength(HttpResponse response, boolean complete, int buffered) {
        String declared = response.headers().get("Content-Length");
        if (declared != null) {
            try {
                return Long.parseLong(declared.trim());
            } catch (NumberFormatException malformed) {
                return -1;
            }
        }
        return complete ? buffered : -1;
    }
}
