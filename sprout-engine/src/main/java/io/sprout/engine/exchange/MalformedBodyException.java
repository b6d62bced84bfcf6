package io.sprout.engine.exchange;

import io.sprout.engine.http.HttpException;

import java.io.IOException;

/**
 * What a handler sees when the request body breaks the chunked coding: an {@link IOException}, as from any broken
 * stream. The exchange still answers with the carried status (400) and closes the connection, whatever the
 * handler did with the exception.
 */
public final class MalformedBodyException extends IOException {

    private static final long serialVersionUID = 1L;

    MalformedBodyException(HttpException cause) {
        super(cause.getMessage(), cause);
    }

    public int status() {
        return ((HttpException) getCause()).status();
    }
}
