package io.sprout.boot.forwarded;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class HostAndPortTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "example.com           | example.com   | -1",
            "example.com:8443      | example.com   | 8443",
            "[::1]                 | [::1]         | -1",
            "[::1]:9090            | [::1]         | 9090",
            "2001:db8::1           | 2001:db8::1   | -1",
            "192.0.2.7:80          | 192.0.2.7     | 80",
            "example.com:          | example.com   | -1",
            "example.com:http      | example.com   | -1",
            "example.com:65536     | example.com   | -1",
            "_hidden               | _hidden       | -1"})
    void splitsHostAndPortAsWritten(String value, String host, int port) {
        assertThat(HostAndPort.parse(value)).isEqualTo(new HostAndPort(host, port));
    }
}
