/**
 * The HTTP/1.1 codec, with no sockets and no threads: the strict request-head parser and its limits, header
 * storage, the semantic request rules that decide body framing, the chunked decoder, and response-head encoding.
 * Every protocol violation is an {@link io.sprout.engine.http.HttpException} carrying the status to answer.
 * Depends on nothing else in the engine but the public {@link io.sprout.engine.Headers} interface, which
 * {@link io.sprout.engine.http.HeaderFields} implements.
 */
package io.sprout.engine.http;
