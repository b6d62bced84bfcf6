package io.sprout.boot.wsapp;

import jakarta.websocket.Encoder;

/** Writes {@code from: text}. */
public class ChatLineEncoder implements Encoder.Text<ChatMessage> {

    @Override
    public String encode(ChatMessage message) {
        return message.from() + ": " + message.text();
    }
}
