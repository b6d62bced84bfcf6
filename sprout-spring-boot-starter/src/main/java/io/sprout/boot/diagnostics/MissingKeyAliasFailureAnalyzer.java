package io.sprout.boot.diagnostics;

import io.sprout.boot.tls.MissingKeyAliasException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * A TLS key alias that is not in its key store: the report names the alias, where the key store was configured
 * and the aliases it does hold, so the fix is a copy-and-paste.
 */
final class MissingKeyAliasFailureAnalyzer extends AbstractFailureAnalyzer<MissingKeyAliasException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, MissingKeyAliasException cause) {
        String property = cause.bundleName() == null ? "server.ssl.key-alias"
                : "spring.ssl.bundle.*." + cause.bundleName() + ".key.alias";
        return new FailureAnalysis("The Sprout web server cannot start HTTPS: the key store of " + cause.source()
                + " does not contain the key alias '" + cause.alias() + "'. It holds: " + cause.aliases() + ".",
                "Set " + property + " to one of the aliases in the key store, or remove it to use the store's only "
                        + "key, or point the key store at one that contains '" + cause.alias() + "'.", cause);
    }
}
