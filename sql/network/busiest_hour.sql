-- The hour with the most flows: the one-hour question asks about it.
SELECT
  date_trunc('hour', start_time) AS hour_start,
  count(*) AS flows
FROM network.vpc_flow_logs
GROUP BY 1
ORDER BY flows DESC, hour_start
LIMIT 1;
