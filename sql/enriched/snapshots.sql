-- The enriched table's commits: the backfill, then each change-feed batch.
SELECT committed_at, snapshot_id, operation, summary['added-records'] AS added_records
FROM enriched."vpc_flow_logs_labelled$snapshots"
ORDER BY committed_at;
