package io.sprout.boot.websocket.annotated;

import jakarta.websocket.DecodeException;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;

/** An annotated method with the source of each of its parameters. */
record BoundMethod(Method method, List<Argument> arguments) {

    /**
     * @throws DecodeException when a path parameter cannot be converted
     * @throws InvocationTargetException wrapping what the method threw
     */
    Object invoke(Object endpoint, Invocation invocation) throws DecodeException, InvocationTargetException {
        Object[] values = new Object[arguments.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = arguments.get(i).value(invocation);
        }
        try {
            return method.invoke(endpoint, values);
        } catch (IllegalAccessException e) {
            // The analysis made the method accessible; reaching this means the module system refused it.
            throw new IllegalStateException("Cannot call " + method, e);
        }
    }
}
