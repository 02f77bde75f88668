import { describe, test, expect } from '@jest/globals';
import {
  INVENTORY,
  INVENTORY_CHANGES,
  inventoryAfterChanges,
  NEW_HOST,
  DUPLICATE_KEY_CHANGES,
} from './inventory';

describe('inventory', () => {
  test('private IPs and ENIs are unique, tiers match names', () => {
    expect(new Set(INVENTORY.map((h) => h.private_ip)).size).toBe(INVENTORY.length);
    expect(new Set(INVENTORY.map((h) => h.interface_id)).size).toBe(INVENTORY.length);
    for (const h of INVENTORY) expect(h.hostname.startsWith(h.tier)).toBe(true);
  });

  test('the change batch moves app-08 to batch, drops web-04 and adds web-05', () => {
    const after = inventoryAfterChanges();
    expect(after.find((h) => h.hostname === 'app-08')?.tier).toBe('batch');
    expect(after.find((h) => h.hostname === 'web-04')).toBeUndefined();
    expect(after).toContainEqual(NEW_HOST);
    expect(after).toHaveLength(INVENTORY.length);
    expect(INVENTORY_CHANGES).toHaveLength(3);
  });

  test('the duplicate-key batch really has two rows for one key', () => {
    const ips = DUPLICATE_KEY_CHANGES.map((c) => c.private_ip);
    expect(new Set(ips).size).toBeLessThan(ips.length);
  });
});
