package io.sprout.engine.websocket;

/**
 * A parsed frame header (RFC 6455 §5.2), already checked against the frame-level rules.
 *
 * @param fin whether this is the last frame of its message
 * @param compressed RSV1, which {@code permessage-deflate} uses on a message's first frame
 * @param opcode the frame's opcode
 * @param length the payload length
 */
record FrameHeader(boolean fin, boolean compressed, Opcode opcode, long length) {
}
