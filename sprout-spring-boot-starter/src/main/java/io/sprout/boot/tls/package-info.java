/**
 * Spring Boot's SSL configuration as the engine's TLS: {@code server.ssl.*} and SSL bundles (PKCS12, JKS, PEM)
 * become {@code io.sprout.engine.TlsContexts}, with the server-name bundles for SNI and a swap of the identities when
 * Boot reloads a bundle. Knows Boot's {@code org.springframework.boot.ssl} and the engine, nothing of the servlet
 * layer or the web server.
 */
package io.sprout.boot.tls;
