package io.sprout.engine;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The default connection limit follows the process's open-file limit, leaving a tenth for everything else. */
class OpenFileLimitTest {

    @Test
    void defaultsToNineTenthsOfTheOpenFileLimitOr8192WhenUnknown() {
        long limit = OpenFileLimit.openFileLimit();
        int expected = limit <= 0 ? 8192 : (int) Math.min(limit - limit / 10, 10_000_000);

        assertThat(ServerConfig.defaultMaxConnections()).isEqualTo(expected);
        assertThat(ServerConfig.builder().build().maxConnections()).isEqualTo(expected);
    }

    @Test
    void readsTheLimitOnUnix() {
        if (System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            assertThat(OpenFileLimit.openFileLimit()).isPositive();
        }
    }
}
