package io.sprout.boot.diagnostics;

import io.sprout.engine.PortBindException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.web.server.PortInUseException;

/**
 * A port the engine could not listen on for a reason other than "in use" (which is Boot's {@code PortInUseException}
 * and Boot's analysis): typically {@code server.address} is not an address of this host.
 */
final class PortBindFailureAnalyzer extends AbstractFailureAnalyzer<PortBindException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, PortBindException cause) {
        if (findCause(rootFailure, PortInUseException.class) != null) {
            return null;
        }
        String reason = cause.getCause() == null ? cause.getMessage() : cause.getCause().getMessage();
        return new FailureAnalysis("The Sprout web server could not listen on port " + cause.port() + ": " + reason
                + ".", "Check that server.address is an address of this host and that the application may listen "
                + "on port " + cause.port() + ", or configure another port.", cause);
    }
}
