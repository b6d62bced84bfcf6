/**
 * The context's static resources and the default servlet that serves them. {@link
 * io.sprout.boot.servlet.resource.ContextResources} is the resource tree behind {@code ServletContext.getResource},
 * {@code getResourcePaths} and {@code getRealPath}: the document root (or a temporary directory when there is none),
 * then the {@code META-INF/resources} of static resource jars. {@link
 * io.sprout.boot.servlet.resource.StaticResourceServlet} serves it over HTTP with validators, conditional requests and
 * byte ranges; the header rules are pure functions ({@link io.sprout.boot.servlet.resource.Preconditions}, {@link
 * io.sprout.boot.servlet.resource.RangeHeader}, {@link io.sprout.boot.servlet.resource.EntityTags}).
 */
package io.sprout.boot.servlet.resource;
