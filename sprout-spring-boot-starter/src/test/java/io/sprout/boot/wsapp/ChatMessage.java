package io.sprout.boot.wsapp;

/** A chat line: who wrote it and what. Sent as {@code from:text}, broadcast as {@code [room] from: text}. */
public record ChatMessage(String from, String text) {
}
