-- Rows in the flow table now (network/duplicates splits them into distinct flows and duplicate deliveries).
SELECT count(*) AS row_count
FROM network.vpc_flow_logs;
