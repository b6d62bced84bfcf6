/**
 * The Autobahn|Testsuite target of the WebFlux build, active only under the Spring profile {@code autobahn}:
 * {@code /autobahn/reactive}, the echo a user writes with Spring's reactive WebSocket API, upgraded by whatever
 * {@code RequestUpgradeStrategy} the server provides, so {@code gatling/autobahn/run.sh} tests the layers users touch.
 * {@code GET /autobahn/limits} reports the largest text and binary messages the server accepts, from an
 * {@link io.sprout.sample.autobahn.EchoLimits} that each server's own sources define ({@code src/sprout-webflux},
 * {@code src/netty}), since each server takes its limits from a different place. Without the profile, nothing here
 * exists and the benchmark application is unchanged.
 */
package io.sprout.sample.autobahn;
