/**
 * The servlet request and response over the engine's request and response: headers, parameters, cookies, locales,
 * origin (including forwarded headers), the response buffer with commit and gzip compression, and the per-dispatch
 * state the path methods report.
 */
package io.sprout.boot.servlet.http;
