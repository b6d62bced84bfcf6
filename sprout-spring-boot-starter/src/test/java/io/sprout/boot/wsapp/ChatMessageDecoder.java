package io.sprout.boot.wsapp;

import jakarta.websocket.DecodeException;
import jakarta.websocket.Decoder;

/** Reads {@code from:text}. */
public class ChatMessageDecoder implements Decoder.Text<ChatMessage> {

    @Override
    public ChatMessage decode(String s) throws DecodeException {
        int colon = s.indexOf(':');
        return new ChatMessage(s.substring(0, colon), s.substring(colon + 1));
    }

    @Override
    public boolean willDecode(String s) {
        return s.indexOf(':') > 0;
    }
}
