-- The enriched table: each flow labelled once, when it lands, with the inventory snapshot that labelled it.
-- PARTITIONED BY (hour(start_time)) is an Iceberg transform: no extra column, and a filter on start_time skips
-- the hours it does not need.
CREATE TABLE enriched.vpc_flow_logs_labelled (
  version int,
  account_id string,
  interface_id string,
  srcaddr string,
  dstaddr string,
  srcport int,
  dstport int,
  protocol int,
  packets bigint,
  bytes bigint,
  start_time timestamp,
  end_time timestamp,
  action string,
  log_status string,
  host_ip string,
  hostname string,
  tier string,
  inventory_snapshot_id bigint
)
PARTITIONED BY (hour(start_time))
TBLPROPERTIES ('table_type' = 'iceberg');
