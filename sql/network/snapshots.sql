-- The table's diary: every commit, oldest first, with what it added and removed.
SELECT
  committed_at,
  snapshot_id,
  operation,
  summary['added-records'] AS added_records,
  summary['added-data-files'] AS added_data_files,
  summary['added-delete-files'] AS added_delete_files,
  summary['added-position-deletes'] AS added_position_deletes,
  summary['deleted-data-files'] AS deleted_data_files,
  summary['total-records'] AS total_records,
  summary['added-files-size'] AS added_files_size,
  summary['total-files-size'] AS total_files_size
FROM network."vpc_flow_logs$snapshots"
ORDER BY committed_at;
