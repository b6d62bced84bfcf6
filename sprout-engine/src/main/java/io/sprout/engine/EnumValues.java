package io.sprout.engine;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Case-insensitive parsing of configuration enums with an error that lists the allowed values. */
final class EnumValues {

    private EnumValues() {
    }

    static <E extends Enum<E>> E parse(Class<E> type, String field, String value) {
        if (value != null) {
            for (E constant : type.getEnumConstants()) {
                if (constant.name().equalsIgnoreCase(value.strip())) {
                    return constant;
                }
            }
        }
        String allowed = Arrays.stream(type.getEnumConstants())
                .map(constant -> constant.name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(", "));
        throw new InvalidConfigException(field, value, "one of " + allowed);
    }
}
