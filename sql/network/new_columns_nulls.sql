-- After adding columns: how many rows read NULL in them (all rows written before the change).
SELECT
  count(*) AS row_count,
  sum(CASE WHEN tcp_flags IS NULL AND flow_direction IS NULL THEN 1 ELSE 0 END) AS rows_with_null_new_columns
FROM network.vpc_flow_logs;
