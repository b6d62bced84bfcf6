package io.sprout.boot.websocket.annotated;

import io.sprout.boot.websocket.MessageKinds;
import jakarta.websocket.DecodeException;

/** How one parameter of an annotated method gets its value from an {@link Invocation}. */
@FunctionalInterface
interface Argument {

    Object value(Invocation invocation) throws DecodeException;

    Argument SESSION = Invocation::session;
    Argument CONFIG = Invocation::config;
    Argument CLOSE_REASON = Invocation::closeReason;
    Argument FAILURE = Invocation::failure;
    Argument MESSAGE = Invocation::message;
    Argument LAST = Invocation::last;

    /** A {@code @PathParam}: the path variable converted to {@code type}; {@code null} when the path has none. */
    static Argument pathParameter(String name, Class<?> type) {
        return invocation -> {
            String value = invocation.session().getPathParameters().get(name);
            if (value == null) {
                if (type.isPrimitive()) {
                    throw new DecodeException((String) null, "The path has no parameter {" + name
                            + "} for a " + type.getName());
                }
                return null;
            }
            try {
                return MessageKinds.parse(type, value);
            } catch (IllegalArgumentException e) {
                throw new DecodeException(value, "The path parameter {" + name + "} is not a " + type.getName(), e);
            }
        };
    }
}
