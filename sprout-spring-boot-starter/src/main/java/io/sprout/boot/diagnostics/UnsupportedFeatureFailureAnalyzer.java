package io.sprout.boot.diagnostics;

import io.sprout.boot.servlet.UnsupportedFeatureException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** A setting or Servlet API call Sprout does not offer ({@code server.http2.enabled=true}, SSL session tracking). */
final class UnsupportedFeatureFailureAnalyzer extends AbstractFailureAnalyzer<UnsupportedFeatureException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedFeatureException cause) {
        return new FailureAnalysis("The Sprout web server cannot honour " + cause.feature() + ": " + cause.reason()
                + ".", cause.action(), cause);
    }
}
