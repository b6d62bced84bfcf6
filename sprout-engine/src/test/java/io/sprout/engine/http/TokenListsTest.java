package io.sprout.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TokenListsTest {

    @Test
    void findsATokenAnywhereInTheList() {
        assertThat(TokenLists.contains("close", "close")).isTrue();
        assertThat(TokenLists.contains("keep-alive, close", "close")).isTrue();
        assertThat(TokenLists.contains("close,keep-alive", "keep-alive")).isTrue();
    }

    @Test
    void ignoresCaseAndOptionalWhitespace() {
        assertThat(TokenLists.contains("Keep-Alive ,\t CLOSE\t", "close")).isTrue();
    }

    @Test
    void matchesWholeElementsOnly() {
        assertThat(TokenLists.contains("closed", "close")).isFalse();
        assertThat(TokenLists.contains("un-close, x", "close")).isFalse();
        assertThat(TokenLists.contains("", "close")).isFalse();
    }

    @Test
    void toleratesEmptyElements() {
        assertThat(TokenLists.contains(",, close ,", "close")).isTrue();
        assertThat(TokenLists.contains(", ,", "close")).isFalse();
    }
}
