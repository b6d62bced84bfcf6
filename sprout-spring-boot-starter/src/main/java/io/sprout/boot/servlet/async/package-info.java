/**
 * Servlet asynchronous processing: one {@code AsyncContext} per async cycle, whose decision (complete, dispatch or
 * timeout) the request's worker waits for and then carries out.
 */
package io.sprout.boot.servlet.async;
