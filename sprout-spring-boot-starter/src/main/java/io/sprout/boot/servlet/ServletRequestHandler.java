package io.sprout.boot.servlet;

import io.sprout.boot.servlet.http.SproutRequest;
import io.sprout.boot.servlet.http.SproutResponse;
import io.sprout.boot.servlet.mapping.RequestPaths;
import io.sprout.engine.RequestHandler;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.HttpResponse;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The engine's {@link RequestHandler} for a servlet context: checks the context path, normalises the path, wraps the
 * engine's request and response in servlet ones and runs the {@link Exchange}. Runs on an engine worker, which it
 * may block (async requests wait on it; see {@code SproutAsyncContext}).
 */
public final class ServletRequestHandler implements RequestHandler {

    private final SproutServletContext context;
    private final ServletInvoker invoker;

    public ServletRequestHandler(SproutServletContext context) {
        this.context = context;
        this.invoker = new ServletInvoker(context);
    }

    @Override
    public void handle(HttpRequest httpRequest, HttpResponse httpResponse) throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(context.getClassLoader());
        try {
            serve(httpRequest, httpResponse);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private void serve(HttpRequest httpRequest, HttpResponse httpResponse) throws Exception {
        long start = System.nanoTime();
        String contextPath = context.getContextPath();
        String raw = httpRequest.path();
        if (raw == null) {
            plain(httpResponse, 404, "Not Found");
            return;
        }
        if (!contextPath.isEmpty() && raw.equals(contextPath)) {
            String query = httpRequest.query();
            httpResponse.status(302);
            httpResponse.headers().set("Location", contextPath + "/" + (query == null ? "" : "?" + query));
            return;
        }
        if (!raw.startsWith(contextPath) || !raw.startsWith("/", contextPath.length())) {
            plain(httpResponse, 404, "Not Found");
            return;
        }
        String path = RequestPaths.normalize(raw.substring(contextPath.length()));
        if (path == null) {
            plain(httpResponse, 400, "Bad Request: invalid path");
            return;
        }
        SproutRequest request = new SproutRequest(httpRequest, context, context.config().useForwardHeaders());
        SproutResponse response = new SproutResponse(httpResponse, request, context);
        new Exchange(context, invoker, request, response, start).run(path, raw.substring(contextPath.length()),
                httpRequest.query());
    }

    private static void plain(HttpResponse response, int status, String text) throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        response.status(status);
        response.headers().set("Content-Type", "text/plain;charset=UTF-8");
        response.contentLength(body.length);
        try (OutputStream out = response.body()) {
            out.write(body);
        }
    }
}
