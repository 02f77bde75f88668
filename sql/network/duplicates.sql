-- Duplicate deliveries: flowgen never repeats (interface, 5-tuple, start), so any repeat is a delivery twice.
SELECT
  sum(copies) AS row_count,
  count(*) AS distinct_flows,
  sum(copies) - count(*) AS duplicate_rows
FROM (
  SELECT count(*) AS copies
  FROM network.vpc_flow_logs
  GROUP BY interface_id, srcaddr, srcport, dstaddr, dstport, protocol, start_time
) AS flows;
