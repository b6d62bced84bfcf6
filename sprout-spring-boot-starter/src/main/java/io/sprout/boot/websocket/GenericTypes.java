package io.sprout.boot.websocket;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.HashMap;
import java.util.Map;

/**
 * Finds the class a generic interface is implemented for, e.g. the {@code T} of a {@code Decoder.Text<T>} or a
 * {@code MessageHandler.Whole<T>}, through superclasses and super-interfaces. Lambdas keep no such information.
 */
final class GenericTypes {

    private GenericTypes() {
    }

    /** The first type argument of {@code target} as {@code type} implements it, or {@code null} when unknown. */
    static Class<?> argument(Class<?> type, Class<?> target) {
        return toClass(resolve(type, target, Map.of()));
    }

    private static Type resolve(Type type, Class<?> target, Map<TypeVariable<?>, Type> outer) {
        Class<?> raw = type instanceof Class<?> c ? c
                : type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : null;
        if (raw == null) {
            return null;
        }
        Map<TypeVariable<?>, Type> bindings = new HashMap<>();
        if (type instanceof ParameterizedType parameterized) {
            TypeVariable<?>[] variables = raw.getTypeParameters();
            Type[] arguments = parameterized.getActualTypeArguments();
            for (int i = 0; i < variables.length; i++) {
                Type argument = arguments[i];
                bindings.put(variables[i], argument instanceof TypeVariable<?> v && outer.containsKey(v)
                        ? outer.get(v) : argument);
            }
        }
        if (raw == target) {
            return bindings.get(target.getTypeParameters()[0]);
        }
        for (Type parent : raw.getGenericInterfaces()) {
            Type found = resolve(parent, target, bindings);
            if (found != null) {
                return found;
            }
        }
        return raw.getGenericSuperclass() == null ? null : resolve(raw.getGenericSuperclass(), target, bindings);
    }

    private static Class<?> toClass(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        if (type instanceof GenericArrayType array) {
            Class<?> component = toClass(array.getGenericComponentType());
            return component == null ? null : component.arrayType();
        }
        return null;
    }
}
