package io.sprout.boot.websocket.annotated;

import io.sprout.boot.websocket.MessageKinds.Kind;

/**
 * An {@code @OnMessage} method.
 *
 * @param bound the method and its parameters
 * @param type the message parameter's type, primitives boxed
 * @param kind the kind of message it receives
 * @param partial whether it takes messages in parts (a {@code boolean} parameter says which is last)
 * @param maxMessageSize the annotation's limit, or -1
 */
record MessageMethod(BoundMethod bound, Class<?> type, Kind kind, boolean partial, long maxMessageSize) {
}
