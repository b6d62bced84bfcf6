-- 1,000 rows (ItemRepository.SEEDED_ROWS); H2 syntax, PostgreSQL is seeded by scripts/postgres-setup.sh.
INSERT INTO item (id, name, price)
SELECT X, CONCAT('item-', X), CAST(X AS DECIMAL(10, 2)) / 4 FROM SYSTEM_RANGE(1, 1000);
