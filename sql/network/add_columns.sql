-- Add two flow-log v3 fields. Iceberg only writes a new schema into the metadata: no snapshot, no file rewritten;
-- rows already written read NULL.
ALTER TABLE network.vpc_flow_logs ADD COLUMNS (tcp_flags int, flow_direction string);
