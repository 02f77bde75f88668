-- The ref namespace's two tables, created with plain Athena SQL: Terraform owns the platform, SQL owns the data.
CREATE TABLE ref.host_inventory (
  private_ip string,
  hostname string,
  tier string,
  interface_id string
)
TBLPROPERTIES ('table_type' = 'iceberg');

CREATE TABLE ref.known_bad_ips (
  ip string,
  reason string
)
TBLPROPERTIES ('table_type' = 'iceberg');
