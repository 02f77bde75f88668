// The reference inventory the flows are generated against, exported as data so the ref-table SQL and the lab's
// checks use exactly the hosts the generator sends traffic for. Part 2's story needs three hosts with a history:
// web-04 (decommissioned by the change batch), app-08 (moves from app to batch) and web-05 (appears).

export type Tier = 'web' | 'app' | 'batch';

export interface InventoryHost {
  private_ip: string;
  hostname: string;
  tier: Tier;
  /** The host's ENI: flows are logged on the interface of the host they touch. */
  interface_id: string;
}

export interface KnownBadIp {
  ip: string;
  reason: string;
}

function eni(n: number): string {
  return `eni-0${n.toString(16).padStart(16, '0')}`;
}

function host(hostname: string, tier: Tier, private_ip: string, n: number): InventoryHost {
  return { private_ip, hostname, tier, interface_id: eni(n) };
}

/** The inventory as it was when the flows started arriving (the ref table's first snapshot). */
export const INVENTORY: readonly InventoryHost[] = [
  host('web-01', 'web', '10.0.1.11', 0x1a01),
  host('web-02', 'web', '10.0.1.12', 0x1a02),
  host('web-03', 'web', '10.0.1.13', 0x1a03),
  host('web-04', 'web', '10.0.1.14', 0x1a04),
  host('app-01', 'app', '10.0.2.21', 0x2b01),
  host('app-02', 'app', '10.0.2.22', 0x2b02),
  host('app-03', 'app', '10.0.2.23', 0x2b03),
  host('app-04', 'app', '10.0.2.24', 0x2b04),
  host('app-05', 'app', '10.0.2.25', 0x2b05),
  host('app-06', 'app', '10.0.2.26', 0x2b06),
  host('app-07', 'app', '10.0.2.27', 0x2b07),
  host('app-08', 'app', '10.0.2.28', 0x2b08),
  host('batch-01', 'batch', '10.0.3.31', 0x3c01),
  host('batch-02', 'batch', '10.0.3.32', 0x3c02),
  host('batch-03', 'batch', '10.0.3.33', 0x3c03),
];

/** The host that appears in the change batch; it only sends traffic in bursts generated after the MERGE. */
export const NEW_HOST: InventoryHost = host('web-05', 'web', '10.0.1.15', 0x1a05);
export const DECOMMISSIONED_HOSTNAME = 'web-04';
export const MOVED_HOSTNAME = 'app-08';
export const MOVED_TO_TIER: Tier = 'batch';

/** The noisy scanner: a documentation-range address (RFC 5737) that probes many ports and gets REJECT. */
export const SCANNER_IP = '198.51.100.77';

/** Known-bad IPs as first loaded. */
export const KNOWN_BAD_IPS: readonly KnownBadIp[] = [
  { ip: SCANNER_IP, reason: 'port scanner' },
  { ip: '203.0.113.9', reason: 'credential stuffing' },
  { ip: '203.0.113.45', reason: 'tor exit node' },
];

/** One change row for a MERGE: `op` says what the MERGE does with it. */
export interface InventoryChange extends InventoryHost {
  op: 'upsert' | 'delete';
}

export interface KnownBadChange extends KnownBadIp {
  op: 'upsert' | 'delete';
}

function byName(hostname: string): InventoryHost {
  const found = INVENTORY.find((h) => h.hostname === hostname);
  if (!found) throw new Error(`inventory has no host ${hostname}`);
  return found;
}

/** Part 2's change batch: a host moves tier, one is decommissioned, one appears. */
export const INVENTORY_CHANGES: readonly InventoryChange[] = [
  { ...byName(MOVED_HOSTNAME), tier: MOVED_TO_TIER, op: 'upsert' },
  { ...byName(DECOMMISSIONED_HOSTNAME), op: 'delete' },
  { ...NEW_HOST, op: 'upsert' },
];

/** The known-bad change batch: one address is re-classified, one is cleared, one is new. */
export const KNOWN_BAD_CHANGES: readonly KnownBadChange[] = [
  { ip: '203.0.113.9', reason: 'credential stuffing (confirmed)', op: 'upsert' },
  { ip: '203.0.113.45', reason: 'tor exit node', op: 'delete' },
  { ip: '192.0.2.200', reason: 'botnet controller', op: 'upsert' },
];

/** A deliberately broken batch for the all-or-nothing MERGE: two source rows for the same key. */
export const DUPLICATE_KEY_CHANGES: readonly InventoryChange[] = [
  { ...byName('app-02'), tier: 'batch', op: 'upsert' },
  { ...byName('app-02'), tier: 'web', op: 'upsert' },
];

/** The inventory after the change batch, as the lab expects to read it. */
export function inventoryAfterChanges(): InventoryHost[] {
  const byIp = new Map(INVENTORY.map((h) => [h.private_ip, { ...h }]));
  for (const change of INVENTORY_CHANGES) {
    const { op, ...row } = change;
    if (op === 'delete') byIp.delete(row.private_ip);
    else byIp.set(row.private_ip, row);
  }
  return [...byIp.values()];
}
