-- Live files of the current snapshot by content: 0 = data, 1 = position deletes, 2 = equality deletes.
SELECT
  content,
  count(*) AS files,
  sum(record_count) AS records,
  sum(file_size_in_bytes) AS bytes
FROM network."vpc_flow_logs$files"
GROUP BY content
ORDER BY content;
