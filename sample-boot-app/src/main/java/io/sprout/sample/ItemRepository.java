package io.sprout.sample;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Reads the {@code item} table through {@link JdbcClient} and the HikariCP pool. Blocking. */
@Repository
public class ItemRepository {

    /** Rows seeded by {@code data.sql} and by {@code scripts/postgres-setup.sh}. */
    static final int SEEDED_ROWS = 1_000;

    static final int MAX_PAGE = 100;

    private final JdbcClient jdbc;

    ItemRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Returns {@code count} consecutive items starting at a random id, so the query is not served by one row. */
    public List<Item> randomPage(int count) {
        int firstId = ThreadLocalRandom.current().nextInt(1, SEEDED_ROWS - count + 2);
        return this.jdbc.sql("SELECT id, name, price FROM item WHERE id >= :first ORDER BY id LIMIT :count")
            .param("first", firstId)
            .param("count", count)
            .query(Item.class)
            .list();
    }

}
