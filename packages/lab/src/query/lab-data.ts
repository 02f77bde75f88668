// Trusted data the SQL templates read besides user parameters: the generator's reference inventory and change
// batches, so the ref tables hold exactly the hosts the flows were generated for.
import {
  DECOMMISSIONED_HOSTNAME,
  DUPLICATE_KEY_CHANGES,
  INVENTORY,
  INVENTORY_CHANGES,
  KNOWN_BAD_CHANGES,
  KNOWN_BAD_IPS,
  MOVED_HOSTNAME,
} from '@loglake/flowgen';

function ipOf(hostname: string): string {
  const host = INVENTORY.find((h) => h.hostname === hostname);
  if (!host) throw new Error(`flowgen inventory has no ${hostname}`);
  return host.private_ip;
}

export function labTemplateData(): Record<string, unknown> {
  return {
    inventory: INVENTORY,
    known_bad: KNOWN_BAD_IPS,
    inventory_changes: INVENTORY_CHANGES,
    known_bad_changes: KNOWN_BAD_CHANGES,
    duplicate_key_changes: DUPLICATE_KEY_CHANGES,
    decommissioned_ip: ipOf(DECOMMISSIONED_HOSTNAME),
    moved_ip: ipOf(MOVED_HOSTNAME),
  };
}
