package io.sprout.boot.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import io.sprout.boot.metrics.SproutMetricsBinder;
import io.sprout.engine.SproutServer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;

/** Publishes the engine's live statistics as {@code sprout.*} meters when Micrometer and a registry exist. */
@AutoConfiguration(afterName = "org.springframework.boot.micrometer.metrics.autoconfigure."
        + "CompositeMeterRegistryAutoConfiguration")
@ConditionalOnWebApplication
@ConditionalOnClass({MeterRegistry.class, SproutServer.class})
public final class SproutMetricsAutoConfiguration {

    @Bean
    @ConditionalOnBean(MeterRegistry.class)
    @ConditionalOnMissingBean
    SproutMetricsBinder sproutMetricsBinder(MeterRegistry meterRegistry) {
        return new SproutMetricsBinder(meterRegistry);
    }
}
