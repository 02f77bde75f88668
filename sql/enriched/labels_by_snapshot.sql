-- Which inventory snapshot labelled which rows, and what it said for the hosts whose story changed.
SELECT
  inventory_snapshot_id,
  hostname,
  tier,
  count(*) AS flows
FROM enriched.vpc_flow_logs_labelled
WHERE hostname IN ('web-04', 'app-08', 'web-05', 'unknown')
GROUP BY 1, 2, 3
ORDER BY 1, 2, 3;
