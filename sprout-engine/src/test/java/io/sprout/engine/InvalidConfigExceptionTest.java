package io.sprout.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.net.InetAddress;
import javax.net.ssl.SSLContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Configuration errors carry the field, the value and what is allowed as data, and say it in the message too. */
class InvalidConfigExceptionTest {

    @Test
    void carriesTheFieldTheValueAndTheAllowedRange() {
        InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class,
                () -> ServerConfig.builder().threadPoolSize(0).build());

        assertThat(e.field()).isEqualTo("threadPoolSize");
        assertThat(e.value()).isEqualTo(0L);
        assertThat(e.allowed()).isEqualTo("between 1 and 32767");
        assertThat(e).hasMessage("threadPoolSize must be between 1 and 32767 but was 0");
    }

    @Test
    void namesTheComponentOfANestedRecord() {
        InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class,
                () -> Timeouts.DEFAULT.withIdle(Duration.ZERO));

        assertThat(e.field()).isEqualTo("idle");
        assertThat(e.value()).isEqualTo(Duration.ZERO);
        assertThat(e).hasMessage("idle must be a positive duration but was PT0S");
    }

    @Test
    void saysThatMinusOneMeansNoLimitWhereItIsAllowed() {
        assertThatThrownBy(() -> HttpLimits.DEFAULT.withMaxRequestBodySize(-2))
                .hasMessage("maxRequestBodySize must be -1 (no limit) or between 0 and 9223372036854775807 but was -2");
        assertThat(HttpLimits.DEFAULT.withMaxRequestBodySize(-1).maxRequestBodySize()).isEqualTo(-1);
    }

    @Test
    void saysThatZeroLeavesTheSendBufferToTheOs() {
        assertThatThrownBy(() -> ServerConfig.builder().socketSendBuffer(1024).build())
                .hasMessage("socketSendBuffer must be 0 (the OS default) or between 4096 and 1073741824 but was 1024");
        assertThat(ServerConfig.builder().socketSendBuffer(0).build().socketSendBuffer()).isZero();
    }

    @Test
    void quotesTextValues() {
        InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class,
                () -> ServerConfig.builder().serverHeader("tab\there").build());

        assertThat(e.value()).isEqualTo("tab\there");
        assertThat(e).hasMessage("serverHeader must be printable ASCII but was 'tab\there'");
    }

    @Test
    void refusesAnAdditionalPortOutOfRangeAndKeepsACopyOfValidOnes() {
        InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class,
                () -> ServerConfig.builder().additionalPorts(List.of(8081, 70000)).build());

        assertThat(e.field()).isEqualTo("additionalPorts");
        assertThat(e.value()).isEqualTo(List.of(8081, 70000));
        assertThat(e).hasMessage("additionalPorts must be a list of ports, each between 0 and 65535 but was "
                + "[8081, 70000]");
        List<Integer> ports = new ArrayList<>(List.of(8081, 0));
        ServerConfig config = ServerConfig.builder().additionalPorts(ports).build();
        ports.clear();
        assertThat(config.additionalPorts()).containsExactly(8081, 0);
        assertThat(ServerConfig.builder().build().additionalPorts()).isEmpty();
    }

    @Test
    void listsTheAllowedValuesOfAnEnum() {
        InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class,
                () -> ExecutionMode.parse("turbo"));

        assertThat(e.field()).isEqualTo("executionMode");
        assertThat(e.value()).isEqualTo("turbo");
        assertThat(e.allowed()).isEqualTo("one of nio, hybrid");
        assertThat(ThreadType.parse(" Virtual ")).isEqualTo(ThreadType.VIRTUAL);
        assertThatThrownBy(() -> ThreadType.parse(null)).isInstanceOfSatisfying(InvalidConfigException.class,
                failure -> assertThat(failure.field()).isEqualTo("threadType"));
    }

    /**
     * Layers above map {@link InvalidConfigException#field()} to their own setting names by the record component it
     * names, so every validated component of every config record must name itself.
     */
    @Test
    void everyValidatedComponentOfTheConfigRecordsNamesItself() throws Exception {
        List<String> wrong = new ArrayList<>();
        SSLContext sslContext = SSLContext.getDefault();
        List<Record> records = List.of(ServerConfig.builder().build(), HttpLimits.DEFAULT, Timeouts.DEFAULT,
                MinDataRates.DEFAULT, Http2Config.DEFAULT, TlsConfig.of(sslContext), TlsContexts.of(sslContext), TlsContext.of(sslContext));
        for (Record defaults : records) {
            RecordComponent[] components = defaults.getClass().getRecordComponents();
            for (int i = 0; i < components.length; i++) {
                Class<?> type = components[i].getType();
                if (type == InetAddress.class || type == TlsConfig.class || type == Http2Config.class) {
                    continue; // Any address, or none, is valid; no TLS means plaintext; no HTTP/2, HTTP/1.1 only.
                }
                Object[] arguments = values(defaults, components);
                arguments[i] = invalid(type);
                InvalidConfigException e = construct(defaults.getClass(), components, arguments);
                if (e == null || !e.field().equals(components[i].getName())) {
                    wrong.add(defaults.getClass().getSimpleName() + "." + components[i].getName() + ": "
                            + (e == null ? "accepted " + arguments[i] : "named " + e.field()));
                }
            }
        }

        assertThat(wrong).isEmpty();
    }

    private static Object invalid(Class<?> type) {
        if (type == int.class) {
            return Integer.MIN_VALUE;
        }
        if (type == long.class) {
            return Long.MIN_VALUE;
        }
        if (type == Duration.class) {
            // Negative, not zero: zero is valid where it means "none" (an optional deadline, no grace period).
            return Duration.ofSeconds(-1);
        }
        return type == String.class ? "\u0000" : null;
    }

    private static Object[] values(Record record, RecordComponent[] components) throws ReflectiveOperationException {
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            values[i] = components[i].getAccessor().invoke(record);
        }
        return values;
    }

    private static InvalidConfigException construct(Class<?> type, RecordComponent[] components, Object[] arguments)
            throws ReflectiveOperationException {
        Class<?>[] types = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
        Constructor<?> canonical = type.getDeclaredConstructor(types);
        try {
            canonical.newInstance(arguments);
            return null;
        } catch (InvocationTargetException e) {
            return e.getCause() instanceof InvalidConfigException invalid ? invalid : null;
        }
    }
}
