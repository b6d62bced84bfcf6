package io.sprout.boot.servlet.resource;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;

/**
 * The default servlet ({@code server.servlet.register-default-servlet}): serves the context's resources as Tomcat's
 * and Jetty's do for Boot. GET and HEAD (and POST, so an error page dispatched for a POST can be static, as on
 * Tomcat) answer with {@code Content-Type} from the context's MIME mappings, {@code Last-Modified}, a strong
 * {@code ETag} and {@code Accept-Ranges: bytes}; conditional requests get 304 or 412 and one byte range 206 or
 * 416. Directories are never listed and nothing under {@code /WEB-INF} or {@code /META-INF} is served: both are
 * 404, as on Tomcat with {@code listings=false}. Request paths arrive decoded and normalised, so an encoded
 * {@code ..} that stays inside the context can only reach these checks, and one that climbs out was already
 * answered 400.
 *
 * <p>Runs on the request's worker and blocks while it copies the resource.
 */
public final class StaticResourceServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final int COPY_BUFFER = 8192;

    private final transient ContextResources resources;

    public StaticResourceServlet(ContextResources resources) {
        this.resources = resources;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        serve(request, response, true);
    }

    @Override
    protected void doHead(HttpServletRequest request, HttpServletResponse response) throws IOException {
        serve(request, response, false);
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        serve(request, response, true);
    }

    private void serve(HttpServletRequest request, HttpServletResponse response, boolean withBody)
            throws IOException {
        boolean included = request.getAttribute(RequestDispatcher.INCLUDE_REQUEST_URI) != null;
        String path = resourcePath(request, included);
        ContextResource resource = protectedPath(path) ? null : resources.find(path);
        if (resource == null || resource.directory()) {
            if (included) {
                // An include cannot set the status: the including servlet hears about it instead, as on Tomcat.
                throw new FileNotFoundException("No static resource " + path);
            }
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        if (included) {
            copy(resource, 0, resource.length(), response.getOutputStream());
            return;
        }
        String etag = EntityTags.of(resource);
        response.setHeader("ETag", etag);
        response.setDateHeader("Last-Modified", resource.lastModified());
        response.setHeader("Accept-Ranges", "bytes");
        switch (Preconditions.evaluate(conditions(request), etag, resource.lastModified())) {
            case NOT_MODIFIED -> response.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
            case PRECONDITION_FAILED -> response.sendError(HttpServletResponse.SC_PRECONDITION_FAILED);
            case PROCEED -> send(request, response, path, resource, etag, withBody);
        }
    }

    private void send(HttpServletRequest request, HttpServletResponse response, String path, ContextResource resource,
            String etag, boolean withBody) throws IOException {
        String contentType = getServletContext().getMimeType(path);
        if (contentType != null) {
            response.setContentType(contentType);
        }
        long length = resource.length();
        ByteRange range = rangeApplies(request, etag, resource.lastModified())
                ? RangeHeader.parse(request.getHeader("Range"), length) : new ByteRange.Whole();
        switch (range) {
            case ByteRange.Whole whole -> {
                response.setContentLengthLong(length);
                if (withBody) {
                    copy(resource, 0, length, response.getOutputStream());
                }
            }
            case ByteRange.Part part -> {
                response.setStatus(HttpServletResponse.SC_PARTIAL_CONTENT);
                response.setHeader("Content-Range", part.contentRange(length));
                response.setContentLengthLong(part.length());
                if (withBody) {
                    copy(resource, part.first(), part.length(), response.getOutputStream());
                }
            }
            case ByteRange.Unsatisfiable unsatisfiable -> {
                response.setHeader("Content-Range", "bytes */" + length);
                response.sendError(HttpServletResponse.SC_REQUESTED_RANGE_NOT_SATISFIABLE);
            }
        }
    }

    /** Ranges apply to GET only, and only while an {@code If-Range} validator still matches (RFC 9110 §13.1.5). */
    private static boolean rangeApplies(HttpServletRequest request, String etag, long lastModified) {
        if (!request.getMethod().equals("GET") || request.getHeader("Range") == null) {
            return false;
        }
        String ifRange = request.getHeader("If-Range");
        if (ifRange == null) {
            return true;
        }
        String validator = ifRange.trim();
        if (validator.startsWith("\"") || validator.startsWith("W/")) {
            return EntityTags.strongMatch(validator, etag);
        }
        long date = date(request, "If-Range");
        return date >= 0 && date / 1000 == lastModified / 1000;
    }

    private static Preconditions.Request conditions(HttpServletRequest request) {
        return new Preconditions.Request(request.getMethod(), request.getHeader("If-Match"),
                request.getHeader("If-None-Match"), date(request, "If-Modified-Since"),
                date(request, "If-Unmodified-Since"));
    }

    /** A date header in milliseconds; -1 when absent or not an HTTP date (the condition is then ignored). */
    private static long date(HttpServletRequest request, String name) {
        try {
            return request.getDateHeader(name);
        } catch (IllegalArgumentException notADate) {
            return -1;
        }
    }

    /** The path within the context: of the include target when included, else of the request. */
    private static String resourcePath(HttpServletRequest request, boolean included) {
        String servletPath = included ? (String) request.getAttribute(RequestDispatcher.INCLUDE_SERVLET_PATH)
                : request.getServletPath();
        String pathInfo = included ? (String) request.getAttribute(RequestDispatcher.INCLUDE_PATH_INFO)
                : request.getPathInfo();
        String path = (servletPath == null ? "" : servletPath) + (pathInfo == null ? "" : pathInfo);
        return path.isEmpty() ? "/" : path;
    }

    /**
     * {@code /WEB-INF} and {@code /META-INF} and everything below them, in any case (on a case-insensitive disk
     * {@code /web-inf} is the same directory).
     */
    private static boolean protectedPath(String path) {
        int end = path.indexOf('/', 1);
        String first = (end < 0 ? path.substring(1) : path.substring(1, end)).toUpperCase(Locale.ROOT);
        return first.equals("WEB-INF") || first.equals("META-INF");
    }

    private static void copy(ContextResource resource, long offset, long count, OutputStream out)
            throws IOException {
        try (InputStream in = resource.open()) {
            in.skipNBytes(offset);
            byte[] buffer = new byte[(int) Math.min(COPY_BUFFER, Math.max(count, 1))];
            long remaining = count;
            while (remaining > 0) {
                int read = in.read(buffer, 0, (int) Math.min(buffer.length, remaining));
                if (read < 0) {
                    throw new IOException("The resource ended " + remaining + " bytes early: " + resource.url());
                }
                out.write(buffer, 0, read);
                remaining -= read;
            }
        }
    }
}
