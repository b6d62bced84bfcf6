/**
 * Annotated endpoints ({@code @ServerEndpoint} classes): the analysis of their methods at deployment, and the
 * adapter that runs one instance as a programmatic {@code Endpoint}.
 */
package io.sprout.boot.websocket.annotated;
