/**
 * The HTTP/2 frame codec (RFC 9113 §4, §6), with no sockets, no threads and no dependency on any other engine
 * package: the resumable {@link io.sprout.engine.http2.FrameParser} checks frame syntax (sizes, stream identifiers,
 * padding, the sequence of a header block) and reports each frame to a
 * {@link io.sprout.engine.http2.FrameListener} as its bytes arrive, DATA and header-block bytes never buffered;
 * {@link io.sprout.engine.http2.FrameWriter} encodes frame headers and the control frames. Every protocol violation
 * is an {@link io.sprout.engine.http2.Http2Exception} that says whether it ends the connection (GOAWAY) or one
 * stream (RST_STREAM). Stream states, flow control, HPACK and limits belong to the session above, which is why the
 * types it uses are public; the module does not export this package.
 */
package io.sprout.engine.http2;
