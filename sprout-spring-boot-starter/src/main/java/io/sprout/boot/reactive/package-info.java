/**
 * Spring WebFlux's {@link org.springframework.http.server.reactive.HttpHandler} run natively on the engine's
 * asynchronous exchange, not through the Servlet layer: {@link io.sprout.boot.reactive.SproutHttpHandlerAdapter} is
 * the engine's {@link io.sprout.engine.RequestHandler}; the request's body is a publisher whose demand drives the
 * engine's read readiness, and the response's body is written one buffer at a time as the engine's non-blocking body
 * becomes writable. Headers are live views of the engine's, never copies. Every engine call is made on the
 * exchange's worker, one at a time; the package knows the engine's API and Spring, and no other Sprout package.
 */
package io.sprout.boot.reactive;
