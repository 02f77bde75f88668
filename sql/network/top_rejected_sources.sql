-- Top rejected sources. Run after the delete and later again: the scanner comes back, because a DELETE removes
-- the rows that exist when it runs, not the traffic that keeps arriving.
SELECT
  srcaddr,
  count(*) AS rejected_flows,
  count(DISTINCT dstport) AS distinct_ports
FROM network.vpc_flow_logs
WHERE action = 'REJECT'
GROUP BY srcaddr
ORDER BY rejected_flows DESC, srcaddr
LIMIT 5;
