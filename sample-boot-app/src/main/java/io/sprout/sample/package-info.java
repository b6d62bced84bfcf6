/**
 * The benchmark application: the {@code /benchmark} endpoints shared by every web server and stack, the work they
 * do ({@link io.sprout.sample.BenchmarkWork}) and the database access ({@link io.sprout.sample.ItemRepository}).
 * Stack-specific code lives in {@code src/servlet/java} (Spring MVC) and {@code src/reactive/java} (WebFlux),
 * added to the build by the Maven profile.
 */
package io.sprout.sample;
