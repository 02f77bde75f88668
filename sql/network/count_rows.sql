-- Rows in the flow table now, and how many distinct flows they hold (the difference is duplicate deliveries).
SELECT count(*) AS row_count
FROM network.vpc_flow_logs;
