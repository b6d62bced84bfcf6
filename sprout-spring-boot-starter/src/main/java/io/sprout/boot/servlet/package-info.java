/**
 * The Servlet 6.1 container layer: the servlet context with dynamic registration of servlets, filters and
 * listeners, filter chains, request dispatch (REQUEST, FORWARD, INCLUDE, ASYNC, ERROR), error pages, the access
 * log, and the engine handler that runs one exchange per request. Unsupported parts of the Servlet API are listed
 * in {@link io.sprout.boot.servlet.Unsupported}.
 */
package io.sprout.boot.servlet;
