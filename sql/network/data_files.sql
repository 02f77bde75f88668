-- The live data files of the current snapshot (content 0), to see which files a change rewrote.
SELECT file_path, record_count, file_size_in_bytes
FROM network."vpc_flow_logs$files"
WHERE content = 0
ORDER BY file_path;
