import { describe, test, expect } from '@jest/globals';
import { InvalidFlowOptionError } from './errors';
import { FlowGenerator, SMOKE_BATCH_SIZE } from './generator';
import { INVENTORY, SCANNER_IP, NEW_HOST, inventoryAfterChanges } from './inventory';
import { flowKey, toJsonLine, FLOW_LOG_V2_COLUMNS } from './records';

const from = new Date('2026-11-28T00:00:00Z');
const to = new Date('2026-11-29T00:00:00Z');

describe('FlowGenerator', () => {
  test('the same seed gives byte-identical output; another seed does not', () => {
    // Prepare / Act
    const a = new FlowGenerator({ seed: 7 }).batch({ count: 500, from, to }).map(toJsonLine);
    const b = new FlowGenerator({ seed: 7 }).batch({ count: 500, from, to }).map(toJsonLine);
    const c = new FlowGenerator({ seed: 8 }).batch({ count: 500, from, to }).map(toJsonLine);
    // Assess
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  test('records are ~300 bytes of JSON with exactly the flow-log v2 columns, timestamps in microseconds', () => {
    const records = new FlowGenerator({ seed: 1 }).batch({ count: 5000, from, to });
    const lines = records.map(toJsonLine);
    const mean = lines.reduce((s, l) => s + Buffer.byteLength(l), 0) / lines.length;
    expect(mean).toBeGreaterThan(260);
    expect(mean).toBeLessThan(340);
    const parsed = JSON.parse(lines[0] as string) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual([...FLOW_LOG_V2_COLUMNS]);
    for (const r of records) {
      expect(r.start_time % 1_000_000).toBe(0);
      expect(r.start_time).toBeGreaterThanOrEqual(from.getTime() * 1000);
      expect(r.start_time).toBeLessThan(to.getTime() * 1000);
      expect(r.end_time).toBeGreaterThanOrEqual(r.start_time);
    }
  });

  test('every private address is an inventory host, and the scanner probes many ports, always REJECT', () => {
    const records = new FlowGenerator({ seed: 2 }).batch({ count: 5000, from, to });
    const inventoryIps = new Set(INVENTORY.map((h) => h.private_ip));
    for (const r of records) {
      for (const ip of [r.srcaddr, r.dstaddr])
        if (ip.startsWith('10.')) expect(inventoryIps.has(ip)).toBe(true);
    }
    const scanner = records.filter((r) => r.srcaddr === SCANNER_IP);
    expect(scanner.length / records.length).toBeGreaterThan(0.06);
    expect(scanner.length / records.length).toBeLessThan(0.1);
    expect(scanner.every((r) => r.action === 'REJECT')).toBe(true);
    expect(new Set(scanner.map((r) => r.dstport)).size).toBeGreaterThan(scanner.length * 0.9);
    // web-04 and app-08 have history for Part 2 to rewrite
    expect(scanner.some((r) => r.dstaddr === '10.0.1.14')).toBe(true);
    expect(records.some((r) => r.srcaddr === '10.0.2.28' || r.dstaddr === '10.0.2.28')).toBe(true);
  });

  test('flows spread over every hour of the window, busier by day', () => {
    const records = new FlowGenerator({ seed: 3 }).batch({ count: 24000, from, to });
    const perHour = new Array<number>(24).fill(0);
    for (const r of records) perHour[new Date(r.start_time / 1000).getUTCHours()]! += 1;
    expect(perHour.every((n) => n > 100)).toBe(true);
    expect(Math.max(...perHour)).toBeGreaterThan(2 * Math.min(...perHour));
    // arrival order is not time order (as Firehose sees it)
    const sorted = [...records].sort((a, b) => a.start_time - b.start_time);
    expect(records).not.toEqual(sorted);
  });

  test('no two generated records share a flow key, across the load, the smoke test and bursts', () => {
    const gen = new FlowGenerator({ seed: 4 });
    const all = [
      ...gen.smoke(to),
      ...gen.batch({ count: 20000, from, to }),
      ...gen.burst({ at: to, count: 2000, seconds: 5 }),
    ];
    expect(new Set(all.map(flowKey)).size).toBe(all.length);
    expect(gen.generatedCount).toBe(all.length);
  });

  test('the smoke batch is 10 accepted flows in the minute before the given time', () => {
    const at = new Date('2026-11-29T12:00:00Z');
    const smoke = new FlowGenerator({ seed: 5 }).smoke(at);
    expect(smoke).toHaveLength(SMOKE_BATCH_SIZE);
    for (const r of smoke) {
      expect(r.start_time).toBeGreaterThanOrEqual((at.getTime() - 60_000) * 1000);
      expect(r.start_time).toBeLessThan(at.getTime() * 1000);
      expect(r.srcaddr).not.toBe(SCANNER_IP);
    }
  });

  test('a burst after the change batch can carry the new host', () => {
    const burst = new FlowGenerator({ seed: 6 }).burst({
      at: to,
      count: 400,
      hosts: inventoryAfterChanges(),
    });
    expect(burst.some((r) => r.dstaddr === NEW_HOST.private_ip || r.srcaddr === NEW_HOST.private_ip)).toBe(
      true,
    );
    expect(burst.some((r) => r.dstaddr === '10.0.1.14' && r.srcaddr !== SCANNER_IP)).toBe(false);
  });

  test('an empty window is refused with both times in the message', () => {
    expect(() => new FlowGenerator({ seed: 1 }).batch({ count: 1, from: to, to: from })).toThrow(
      /2026-11-29T00:00:00.000Z/,
    );
  });

  test('bad options are InvalidFlowOptionError naming the value', () => {
    const seed = (() => {
      try {
        new FlowGenerator({ seed: 1.5 });
      } catch (error) {
        return error;
      }
    })();
    expect(seed).toBeInstanceOf(InvalidFlowOptionError);
    expect((seed as InvalidFlowOptionError).value).toBe(1.5);
    expect(() => new FlowGenerator({ seed: 1 }).batch({ count: 1, from: to, to: from })).toThrow(
      InvalidFlowOptionError,
    );
  });
});
