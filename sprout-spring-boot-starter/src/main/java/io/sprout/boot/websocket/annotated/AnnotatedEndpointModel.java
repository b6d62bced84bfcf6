package io.sprout.boot.websocket.annotated;

import io.sprout.boot.websocket.MessageKinds;
import io.sprout.boot.websocket.MessageKinds.Kind;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Decoder;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.Session;
import jakarta.websocket.server.PathParam;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What an annotated endpoint class declares (Jakarta WebSocket 2.2 §4): its {@code @OnOpen}, {@code @OnClose},
 * {@code @OnError} and {@code @OnMessage} methods with the source of every parameter, checked against the
 * specification's rules when the endpoint is deployed, so a broken endpoint fails start-up with a
 * {@link DeploymentException} naming the method instead of failing its first client. Immutable.
 */
public final class AnnotatedEndpointModel {

    private final Class<?> type;
    private final BoundMethod onOpen;
    private final BoundMethod onClose;
    private final BoundMethod onError;
    private final List<MessageMethod> messages;

    private AnnotatedEndpointModel(Class<?> type, BoundMethod onOpen, BoundMethod onClose, BoundMethod onError,
            List<MessageMethod> messages) {
        this.type = type;
        this.onOpen = onOpen;
        this.onClose = onClose;
        this.onError = onError;
        this.messages = messages;
    }

    /**
     * @param decoders the endpoint's decoders, which decide what other types a message parameter may have
     * @throws DeploymentException naming the method and the rule it breaks
     */
    public static AnnotatedEndpointModel analyse(Class<?> type, List<Class<? extends Decoder>> decoders)
            throws DeploymentException {
        BoundMethod open = null;
        BoundMethod close = null;
        BoundMethod error = null;
        Map<Kind, MessageMethod> messages = new EnumMap<>(Kind.class);
        for (Method method : methods(type)) {
            if (method.isAnnotationPresent(OnOpen.class)) {
                open = once(open, lifecycle(method, OnOpen.class, EndpointConfig.class, Argument.CONFIG), method);
            }
            if (method.isAnnotationPresent(OnClose.class)) {
                close = once(close, lifecycle(method, OnClose.class, CloseReason.class, Argument.CLOSE_REASON),
                        method);
            }
            if (method.isAnnotationPresent(OnError.class)) {
                error = once(error, onError(method), method);
            }
            if (method.isAnnotationPresent(OnMessage.class)) {
                MessageMethod message = onMessage(method, decoders);
                MessageMethod other = messages.put(message.kind(), message);
                if (other != null) {
                    throw new DeploymentException(type.getName() + " has two @OnMessage methods for "
                            + message.kind().name().toLowerCase() + " messages: " + other.bound().method().getName()
                            + " and " + method.getName());
                }
            }
        }
        return new AnnotatedEndpointModel(type, open, close, error, List.copyOf(messages.values()));
    }

    /** A new endpoint adapter around one instance of the class. */
    public Endpoint endpoint(Object instance) {
        if (!type.isInstance(instance)) {
            throw new IllegalArgumentException("The configurator returned " + instance.getClass().getName()
                    + " for the endpoint " + type.getName());
        }
        return new AnnotatedEndpoint(this, instance);
    }

    /** The largest text message an {@code @OnMessage} allows, or 0 when it does not say. */
    public int maxText() {
        return maxSize(Kind.TEXT);
    }

    /** The largest binary message an {@code @OnMessage} allows, or 0 when it does not say. */
    public int maxBinary() {
        return maxSize(Kind.BINARY);
    }

    private int maxSize(Kind kind) {
        for (MessageMethod message : messages) {
            if (message.kind() == kind && message.maxMessageSize() > 0) {
                return (int) Math.min(message.maxMessageSize(), Integer.MAX_VALUE - 8);
            }
        }
        return 0;
    }

    BoundMethod onOpen() {
        return onOpen;
    }

    BoundMethod onClose() {
        return onClose;
    }

    BoundMethod onError() {
        return onError;
    }

    List<MessageMethod> messages() {
        return messages;
    }

    Class<?> type() {
        return type;
    }

    /** Public methods of the class and its superclasses; an override hides the method it overrides. */
    private static List<Method> methods(Class<?> type) throws DeploymentException {
        List<Method> methods = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Class<?> current = type; current != null && current != Object.class; current = current.getSuperclass()) {
            for (Method method : current.getDeclaredMethods()) {
                if (!annotated(method) || !seen.add(method.getName() + List.of(method.getParameterTypes()))) {
                    continue;
                }
                if (!Modifier.isPublic(method.getModifiers()) || Modifier.isStatic(method.getModifiers())) {
                    throw new DeploymentException("The annotated method " + describe(method)
                            + " must be public and not static");
                }
                method.setAccessible(true);
                methods.add(method);
            }
        }
        return methods;
    }

    private static boolean annotated(Method method) {
        return method.isAnnotationPresent(OnOpen.class) || method.isAnnotationPresent(OnClose.class)
                || method.isAnnotationPresent(OnError.class) || method.isAnnotationPresent(OnMessage.class);
    }

    private static BoundMethod once(BoundMethod existing, BoundMethod found, Method method)
            throws DeploymentException {
        if (existing != null) {
            throw new DeploymentException(method.getDeclaringClass().getName() + " has two methods with the same "
                    + "annotation: " + existing.method().getName() + " and " + method.getName());
        }
        return found;
    }

    /** {@code @OnOpen} and {@code @OnClose}: a Session, the one extra type, and path parameters. */
    private static BoundMethod lifecycle(Method method, Class<? extends Annotation> annotation, Class<?> extra,
            Argument extraArgument) throws DeploymentException {
        List<Argument> arguments = new ArrayList<>();
        for (Parameter parameter : method.getParameters()) {
            Argument common = common(method, parameter);
            if (common != null) {
                arguments.add(common);
            } else if (parameter.getType() == extra) {
                arguments.add(extraArgument);
            } else {
                throw new DeploymentException("The @" + annotation.getSimpleName() + " method " + describe(method)
                        + " has a parameter of type " + parameter.getType().getName() + "; allowed are Session, "
                        + extra.getSimpleName() + " and @PathParam parameters");
            }
        }
        return new BoundMethod(method, List.copyOf(arguments));
    }

    private static BoundMethod onError(Method method) throws DeploymentException {
        List<Argument> arguments = new ArrayList<>();
        boolean failure = false;
        for (Parameter parameter : method.getParameters()) {
            Argument common = common(method, parameter);
            if (common != null) {
                arguments.add(common);
            } else if (parameter.getType() == Throwable.class && !failure) {
                failure = true;
                arguments.add(Argument.FAILURE);
            } else {
                throw new DeploymentException("The @OnError method " + describe(method) + " has a parameter of "
                        + "type " + parameter.getType().getName() + "; allowed are one Throwable, Session and "
                        + "@PathParam parameters");
            }
        }
        if (!failure) {
            throw new DeploymentException("The @OnError method " + describe(method) + " must take a Throwable");
        }
        return new BoundMethod(method, List.copyOf(arguments));
    }

    private static MessageMethod onMessage(Method method, List<Class<? extends Decoder>> decoders)
            throws DeploymentException {
        Parameter[] parameters = method.getParameters();
        List<Integer> rest = new ArrayList<>();
        Argument[] arguments = new Argument[parameters.length];
        for (int i = 0; i < parameters.length; i++) {
            arguments[i] = common(method, parameters[i]);
            if (arguments[i] == null) {
                rest.add(i);
            }
        }
        int messageIndex;
        boolean partial = false;
        if (rest.size() == 1) {
            messageIndex = rest.get(0);
        } else if (rest.size() == 2 && isBoolean(parameters[rest.get(1)].getType())
                && MessageKinds.partialAllowed(parameters[rest.get(0)].getType())) {
            messageIndex = rest.get(0);
            arguments[rest.get(1)] = Argument.LAST;
            partial = true;
        } else {
            throw new DeploymentException("The @OnMessage method " + describe(method) + " must have exactly one "
                    + "message parameter (or String, ByteBuffer or byte[] followed by a boolean for parts), besides "
                    + "Session and @PathParam parameters");
        }
        Class<?> type = parameters[messageIndex].getType();
        Kind kind = MessageKinds.of(type, decoders);
        if (kind == null) {
            throw new DeploymentException("The @OnMessage method " + describe(method) + " takes "
                    + type.getName() + ", which is not a built-in message type and no decoder of the endpoint "
                    + "produces");
        }
        arguments[messageIndex] = Argument.MESSAGE;
        long maxMessageSize = method.getAnnotation(OnMessage.class).maxMessageSize();
        return new MessageMethod(new BoundMethod(method, List.of(arguments)), MessageKinds.boxed(type), kind,
                partial, maxMessageSize);
    }

    /** A Session or a {@code @PathParam} parameter, or {@code null} for any other. */
    private static Argument common(Method method, Parameter parameter) throws DeploymentException {
        if (parameter.getType() == Session.class) {
            return Argument.SESSION;
        }
        PathParam path = parameter.getAnnotation(PathParam.class);
        if (path == null) {
            return null;
        }
        if (!MessageKinds.isScalar(parameter.getType())) {
            throw new DeploymentException("The @PathParam(\"" + path.value() + "\") parameter of "
                    + describe(method) + " has type " + parameter.getType().getName() + "; allowed are String, "
                    + "primitives and their boxes");
        }
        return Argument.pathParameter(path.value(), parameter.getType());
    }

    private static boolean isBoolean(Class<?> type) {
        return type == boolean.class || type == Boolean.class;
    }

    private static String describe(Method method) {
        return method.getDeclaringClass().getName() + "." + method.getName();
    }
}
