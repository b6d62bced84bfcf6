/**
 * Servlet URL patterns: mapping a request path to a servlet per Servlet spec 12.2 (exact, prefix, extension,
 * default, context root), filter pattern matching, and the decoding and normalisation of request paths that
 * mapping relies on. No I/O, no threads.
 */
package io.sprout.boot.servlet.mapping;
