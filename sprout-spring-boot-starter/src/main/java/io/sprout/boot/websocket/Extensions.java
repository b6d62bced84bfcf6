package io.sprout.boot.websocket;

import jakarta.websocket.Extension;

import java.util.ArrayList;
import java.util.List;

/** {@code Sec-WebSocket-Extensions} values (RFC 6455 §9.1) as Jakarta {@link Extension}s. */
final class Extensions {

    /** An extension offered or agreed, with its parameters in order. */
    record Value(String name, List<Extension.Parameter> parameters) implements Extension {
        @Override
        public String getName() {
            return name;
        }

        @Override
        public List<Parameter> getParameters() {
            return parameters;
        }
    }

    record Parameter(String name, String value) implements Extension.Parameter {
        @Override
        public String getName() {
            return name;
        }

        @Override
        public String getValue() {
            return value;
        }
    }

    static final Extension PERMESSAGE_DEFLATE = new Value("permessage-deflate", List.of());

    private Extensions() {
    }

    /** Every extension in the header values, in order; blank entries are skipped. */
    static List<Extension> parse(List<String> headerValues) {
        List<Extension> extensions = new ArrayList<>();
        for (String value : headerValues) {
            if (value == null) {
                continue;
            }
            for (String entry : value.split(",")) {
                String[] parts = entry.split(";");
                String name = parts[0].trim();
                if (name.isEmpty()) {
                    continue;
                }
                List<Extension.Parameter> parameters = new ArrayList<>();
                for (int i = 1; i < parts.length; i++) {
                    String part = parts[i].trim();
                    int equals = part.indexOf('=');
                    String key = equals < 0 ? part : part.substring(0, equals).trim();
                    String raw = equals < 0 ? null : part.substring(equals + 1).trim();
                    if (raw != null && raw.length() >= 2 && raw.startsWith("\"") && raw.endsWith("\"")) {
                        raw = raw.substring(1, raw.length() - 1);
                    }
                    if (!key.isEmpty()) {
                        parameters.add(new Parameter(key, raw));
                    }
                }
                extensions.add(new Value(name, List.copyOf(parameters)));
            }
        }
        return extensions;
    }
}
