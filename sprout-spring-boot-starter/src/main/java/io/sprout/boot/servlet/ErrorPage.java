package io.sprout.boot.servlet;

/**
 * Where an error is rendered: for one status, one exception type, or every error ({@code global}).
 *
 * @param status the status code, or 0
 * @param exception the exception type, or {@code null}
 * @param path the page's path within the context
 */
public record ErrorPage(int status, Class<? extends Throwable> exception, String path) {

    public boolean global() {
        return status == 0 && exception == null;
    }
}
