/**
 * Boot's failure analyzers for the ways Sprout refuses to start, registered in {@code META-INF/spring.factories}, so
 * a refused setting ends in Boot's "APPLICATION FAILED TO START" report (a description and an action) instead of a
 * bare stack trace (a bad TLS key alias among them). Bad {@code sprout.server.*} values and ports in use need none
 * of their own: the starter raises Boot's {@code InvalidConfigurationPropertyValueException} and
 * {@code PortInUseException}, which Boot analyzes.
 */
package io.sprout.boot.diagnostics;
