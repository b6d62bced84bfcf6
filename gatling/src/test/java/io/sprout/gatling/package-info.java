/**
 * Gatling simulations against the benchmark application. Each is parameterised by system properties read in
 * {@link io.sprout.gatling.LoadSettings} ({@code baseUrl}, loopback only, and {@code scale}, a duration factor);
 * every run is bounded by {@code maxDuration} and Gatling's request timeout ({@code gatling.conf}).
 */
package io.sprout.gatling;
