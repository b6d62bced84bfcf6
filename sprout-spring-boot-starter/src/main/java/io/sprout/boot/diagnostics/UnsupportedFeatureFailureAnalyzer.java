package io.sprout.boot.diagnostics;

import io.sprout.boot.servlet.UnsupportedFeatureException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * A setting or Servlet API call Sprout does not offer, met while the application starts (SSL session tracking,
 * {@code server.servlet.session.tracking-modes=ssl}; {@code ServletContext.addJspFile}), reported with the reason and
 * what to do instead.
 */
final class UnsupportedFeatureFailureAnalyzer extends AbstractFailureAnalyzer<UnsupportedFeatureException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedFeatureException cause) {
        return new FailureAnalysis("The Sprout web server cannot honour " + cause.feature() + ": " + cause.reason()
                + ".", cause.action(), cause);
    }
}
