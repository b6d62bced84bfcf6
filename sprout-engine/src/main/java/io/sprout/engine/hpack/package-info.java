/**
 * HPACK (RFC 7541), the header compression of HTTP/2, with no sockets, no threads and no other engine package: the
 * static table, the dynamic table with its size accounting and eviction, prefix integers, the Huffman code, the
 * {@link io.sprout.engine.hpack.HpackDecoder} that turns one header block into fields and the
 * {@link io.sprout.engine.hpack.HpackEncoder} that turns a response head into one. A malformed block is an
 * {@link io.sprout.engine.hpack.HpackException}, which ends the connection (COMPRESSION_ERROR); a block that decodes
 * to more than the advertised header list size is a {@link io.sprout.engine.hpack.HeaderListTooLargeException},
 * which ends only its stream, because the decoder has kept its table in step with the peer's. Field names and values
 * are taken as they come: checking them against RFC 9113 §8.2.1 is the HTTP/2 session's job.
 */
package io.sprout.engine.hpack;
