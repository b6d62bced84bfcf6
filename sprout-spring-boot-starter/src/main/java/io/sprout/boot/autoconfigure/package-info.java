/**
 * Spring Boot auto-configuration for Sprout: the servlet web server auto-configuration (ordered before Tomcat's
 * and Jetty's, backing off to a user-defined factory), the {@code sprout.server.*} properties and how they and the
 * unmapped {@code server.*} properties reach the factory, the management-context factory for {@code
 * management.server.port}, and the Micrometer binder registration.
 */
package io.sprout.boot.autoconfigure;
