package io.sprout.sample;

import java.math.BigDecimal;

/** One row of the {@code item} table. */
public record Item(int id, String name, BigDecimal price) {
}
