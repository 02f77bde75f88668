// Seeded, deterministic VPC flow-log v2 traffic for the lab: three tiers talking to each other and to the
// internet, a noisy scanner probing many ports (REJECT), spread over hours with a day/night rhythm.
import { InvalidFlowOptionError } from './errors';
import { INVENTORY, SCANNER_IP, DECOMMISSIONED_HOSTNAME, type InventoryHost } from './inventory';
import { SeededRandom } from './random';
import { flowKey, type FlowRecord } from './records';

export const DEFAULT_ACCOUNT_ID = '123456789012';
export const SMOKE_BATCH_SIZE = 10;

export interface FlowGeneratorOptions {
  seed: number;
  accountId?: string;
}

export interface BatchOptions {
  count: number;
  /** Flows start in [from, to). */
  from: Date;
  to: Date;
  /** Share of records from the scanner (default 0.08, close to the seed's 4,018 of ~50,000). */
  scannerShare?: number;
  /** Hosts that carry traffic (default: the initial inventory). */
  hosts?: readonly InventoryHost[];
}

type FlowKind = 'inbound-web' | 'web-to-app' | 'app-to-batch' | 'egress' | 'ssh-probe';

const KIND_WEIGHTS: readonly (readonly [FlowKind, number])[] = [
  ['inbound-web', 45],
  ['web-to-app', 25],
  ['app-to-batch', 12],
  ['egress', 15],
  ['ssh-probe', 3],
];

const PUBLIC_FIRST_OCTETS = [3, 13, 18, 34, 35, 44, 52, 54, 99, 151, 172, 185] as const;
const MICROS_PER_SECOND = 1_000_000;

export class FlowGenerator {
  private readonly random: SeededRandom;
  private readonly accountId: string;
  /** Every key handed out so far: the generator never repeats a flow, so table duplicates are detectable. */
  private readonly keys = new Set<string>();

  constructor({ seed, accountId = DEFAULT_ACCOUNT_ID }: FlowGeneratorOptions) {
    this.random = new SeededRandom(seed);
    this.accountId = accountId;
  }

  get generatedCount(): number {
    return this.keys.size;
  }

  /** The main load: `count` flows spread over [from, to), in arrival order (not sorted by time, like Firehose). */
  batch({ count, from, to, scannerShare = 0.08, hosts = INVENTORY }: BatchOptions): FlowRecord[] {
    assertWindow(from, to);
    return this.flows(count, scannerShare, hosts, () => this.diurnalSecond(from, to));
  }

  /** The 10-record smoke test: ordinary accepted traffic in the minute before `at`. */
  smoke(at: Date): FlowRecord[] {
    return this.burst({ at, count: SMOKE_BATCH_SIZE, seconds: 60, scannerShare: 0 });
  }

  /** A short burst: `count` flows all starting within `seconds` before `at`. */
  burst({
    at,
    count,
    seconds = 60,
    scannerShare = 0.08,
    hosts = INVENTORY,
  }: {
    at: Date;
    count: number;
    seconds?: number;
    scannerShare?: number;
    hosts?: readonly InventoryHost[];
  }): FlowRecord[] {
    const from = new Date(at.getTime() - seconds * 1000);
    return this.flows(count, scannerShare, hosts, () => this.uniformSecond(from, at));
  }

  /** `count` flows, each starting at `startSecond()`, from the scanner with probability `scannerShare`. */
  private flows(
    count: number,
    scannerShare: number,
    hosts: readonly InventoryHost[],
    startSecond: () => number,
  ): FlowRecord[] {
    const records: FlowRecord[] = [];
    for (let i = 0; i < count; i++) {
      const start = startSecond();
      records.push(
        this.random.chance(scannerShare) ? this.scannerFlow(start, hosts) : this.normalFlow(start, hosts),
      );
    }
    return records;
  }

  private normalFlow(startSecond: number, hosts: readonly InventoryHost[]): FlowRecord {
    const kind = this.random.weighted(KIND_WEIGHTS);
    const tier = (t: InventoryHost['tier']) => {
      const inTier = hosts.filter((h) => h.tier === t);
      return inTier.length > 0 ? inTier : hosts;
    };
    switch (kind) {
      case 'inbound-web': {
        const web = this.random.pick(tier('web'));
        return this.flow(startSecond, web, {
          src: this.publicIp(),
          dst: web.private_ip,
          dstport: this.random.pick([443, 443, 443, 80]),
          action: this.random.chance(0.01) ? 'REJECT' : 'ACCEPT',
          packets: this.random.int(4, 180),
        });
      }
      case 'web-to-app': {
        const web = this.random.pick(tier('web'));
        const app = this.random.pick(tier('app'));
        return this.flow(startSecond, app, {
          src: web.private_ip,
          dst: app.private_ip,
          dstport: 8080,
          action: 'ACCEPT',
          packets: this.random.int(2, 120),
        });
      }
      case 'app-to-batch': {
        const app = this.random.pick(tier('app'));
        const batch = this.random.pick(tier('batch'));
        return this.flow(startSecond, batch, {
          src: app.private_ip,
          dst: batch.private_ip,
          dstport: this.random.pick([9092, 5432]),
          action: 'ACCEPT',
          packets: this.random.int(2, 400),
        });
      }
      case 'egress': {
        const source = this.random.pick(hosts);
        return this.flow(startSecond, source, {
          src: source.private_ip,
          dst: this.publicIp(),
          dstport: 443,
          action: 'ACCEPT',
          packets: this.random.int(2, 60),
        });
      }
      case 'ssh-probe': {
        const target = this.random.pick(hosts);
        return this.flow(startSecond, target, {
          src: this.publicIp(),
          dst: target.private_ip,
          dstport: this.random.pick([22, 3389]),
          action: 'REJECT',
          packets: this.random.int(1, 3),
        });
      }
    }
  }

  /** The scanner: one SYN per port, all REJECT; it favours web-04, which is why Part 2's join rewrites history. */
  private scannerFlow(startSecond: number, hosts: readonly InventoryHost[]): FlowRecord {
    const webs = hosts.filter((h) => h.tier === 'web');
    const favourite = webs.find((h) => h.hostname === DECOMMISSIONED_HOSTNAME);
    const target =
      favourite && this.random.chance(0.4) ? favourite : this.random.pick(webs.length > 0 ? webs : hosts);
    return this.flow(startSecond, target, {
      src: SCANNER_IP,
      dst: target.private_ip,
      dstport: this.random.int(1, 65535),
      action: 'REJECT',
      packets: 1,
      bytesPerPacket: 44,
    });
  }

  private flow(
    startSecond: number,
    loggedOn: InventoryHost,
    shape: {
      src: string;
      dst: string;
      dstport: number;
      action: FlowRecord['action'];
      packets: number;
      bytesPerPacket?: number;
    },
  ): FlowRecord {
    const duration = shape.packets === 1 ? 0 : this.random.int(1, 59);
    const record: FlowRecord = {
      version: 2,
      account_id: this.accountId,
      interface_id: loggedOn.interface_id,
      srcaddr: shape.src,
      dstaddr: shape.dst,
      srcport: this.ephemeralPort(),
      dstport: shape.dstport,
      protocol: 6,
      packets: shape.packets,
      bytes: shape.packets * (shape.bytesPerPacket ?? this.random.int(60, 1400)),
      start_time: startSecond * MICROS_PER_SECOND,
      end_time: (startSecond + duration) * MICROS_PER_SECOND,
      action: shape.action,
      log_status: 'OK',
    };
    // Same interface, 5-tuple and second twice would look like a duplicate delivery: pick another source port.
    while (this.keys.has(flowKey(record))) record.srcport = this.ephemeralPort();
    this.keys.add(flowKey(record));
    return record;
  }

  private ephemeralPort(): number {
    return this.random.int(32768, 60999);
  }

  private publicIp(): string {
    return `${this.random.pick(PUBLIC_FIRST_OCTETS)}.${this.random.int(0, 255)}.${this.random.int(0, 255)}.${this.random.int(1, 254)}`;
  }

  private uniformSecond(from: Date, to: Date): number {
    const a = Math.ceil(from.getTime() / 1000);
    const b = Math.floor((to.getTime() - 1) / 1000);
    return b <= a ? a : this.random.int(a, b);
  }

  /** Busier by day (UTC) than by night, by rejection sampling against a smooth daily curve. */
  private diurnalSecond(from: Date, to: Date): number {
    for (;;) {
      const second = this.uniformSecond(from, to);
      const hourOfDay = (second / 3600) % 24;
      const weight = 0.55 + 0.45 * Math.sin(((hourOfDay - 8) / 24) * 2 * Math.PI);
      if (this.random.next() < weight) return second;
    }
  }
}

function assertWindow(from: Date, to: Date): void {
  if (!(from.getTime() < to.getTime())) {
    throw new InvalidFlowOptionError(
      `flow window is empty: from ${from.toISOString()} must be before to ${to.toISOString()}.`,
      { value: { from, to } },
    );
  }
}
