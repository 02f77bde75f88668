-- The inventory's snapshot history: the first load, then the MERGE (merge-on-read: an overwrite with deletes).
SELECT
  committed_at,
  snapshot_id,
  operation,
  summary['added-records'] AS added_records,
  summary['added-position-deletes'] AS added_position_deletes,
  summary['total-records'] AS total_records
FROM ref."host_inventory$snapshots"
ORDER BY committed_at;
