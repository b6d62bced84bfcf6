/**
 * The Autobahn|Testsuite targets, active only under the Spring profile {@code autobahn}: the WebSocket echoes a user
 * writes with Spring's and Jakarta's APIs, so {@code gatling/autobahn/run.sh} tests the layers users touch rather
 * than the engine's own echo. {@code autobahn.limits=raised} raises the container's message limits to 16 MiB (every
 * size case of the suite fits); {@code default} (the default) leaves the server's own. Without the profile, nothing
 * here exists and the benchmark application is unchanged.
 */
package io.sprout.sample.autobahn;
