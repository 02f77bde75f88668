// @loglake/flowgen: the synthetic VPC flow-log generator (seeded, deterministic) — records, their schema, the bad
// records the lab injects, and the host inventory with its changes (the reference data the lab MERGEs).
export { BAD_RECORD_KINDS, type BadRecord, makeBadRecords } from './bad-records';
export { FlowGenerator } from './generator';
export {
  DECOMMISSIONED_HOSTNAME,
  DUPLICATE_KEY_CHANGES,
  INVENTORY,
  INVENTORY_CHANGES,
  inventoryAfterChanges,
  KNOWN_BAD_CHANGES,
  KNOWN_BAD_IPS,
  MOVED_HOSTNAME,
  MOVED_TO_TIER,
  NEW_HOST,
  SCANNER_IP,
} from './inventory';
export { FLOW_LOG_V2_COLUMNS, FLOW_LOG_V2_SCHEMA, flowKey, type FlowRecord, toJsonLine } from './records';
