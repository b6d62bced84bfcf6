package io.sprout.boot.diagnostics;

import io.sprout.engine.InvalidConfigException;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * An engine configuration value the engine refuses that no {@code sprout.server.*} property set (those become
 * Boot's own property failures): it came from a {@code SproutServerConfigCustomizer}, the factory's
 * {@code setServerConfig} or {@code addAdditionalPorts}. A refusal that already became a property failure (while
 * Boot binds a property, or in the starter's customizer) is left to Boot's analyzers, which name the property and
 * where it was set.
 */
final class InvalidEngineConfigFailureAnalyzer extends AbstractFailureAnalyzer<InvalidConfigException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidConfigException cause) {
        if (findCause(rootFailure, BindException.class) != null
                || findCause(rootFailure, InvalidConfigurationPropertyValueException.class) != null) {
            return null;
        }
        return new FailureAnalysis("The Sprout web server refused its engine configuration: " + cause.getMessage()
                + ".", "Correct '" + cause.field() + "' where the application sets it: a SproutServerConfigCustomizer "
                + "bean, or a WebServerFactoryCustomizer calling SproutServletWebServerFactory.setServerConfig or "
                + "addAdditionalPorts.", cause);
    }
}
