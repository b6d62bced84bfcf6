package io.sprout.boot.autoconfigure;

import io.sprout.engine.ExecutionMode;
import io.sprout.engine.ThreadType;
import org.springframework.core.convert.converter.Converter;

/**
 * Binds {@code sprout.server.execution-mode} and {@code thread-type} with the engine's own parsers, so a bad
 * value fails start-up with a message listing the allowed values (Boot's binder wraps it with the property name).
 */
final class EngineEnumConverters {

    private EngineEnumConverters() {
    }

    static final class ExecutionModeConverter implements Converter<String, ExecutionMode> {
        @Override
        public ExecutionMode convert(String source) {
            return ExecutionMode.parse(source);
        }
    }

    static final class ThreadTypeConverter implements Converter<String, ThreadType> {
        @Override
        public ThreadType convert(String source) {
            return ThreadType.parse(source);
        }
    }
}
