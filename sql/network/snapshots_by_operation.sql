-- $snapshots grouped by operation: the whole story of the lab in a few rows.
SELECT
  operation,
  count(*) AS snapshots,
  min(committed_at) AS first_commit,
  max(committed_at) AS last_commit
FROM network."vpc_flow_logs$snapshots"
GROUP BY operation
ORDER BY first_commit;
