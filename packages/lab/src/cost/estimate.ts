// What this run would have cost on AWS, per service, from what it measured (RunUsage) and AWS's list prices
// (prices.ts); and per day and per month if the lab were left running: nothing more sent, the daily snapshot run
// once a day as this run measured it, everything stored kept. Pure: each line is a function of the usage and the
// prices, so a test can change one measured figure and see its line move.
import { athenaCostUsd, formatBytes, formatCount } from '../report/format';
import { PRICE_REGION, PRICES, PRICES_AS_OF, type Price, type PriceId } from './prices';
import type { RunUsage } from './usage';

/** Storage and ingestion: AWS's pricing examples count a GB as 1,024 MB ("1 TB (1,024 GB)"). */
export const GB = 1024 ** 3;
/** Monthly fees accrue by the hour; a month is 730 hours, as AWS's pricing examples count it. */
export const HOURS_PER_MONTH = 730;
export const DAYS_PER_MONTH = HOURS_PER_MONTH / 24;

export interface CostLine {
  id: string;
  service: string;
  /** What was measured (or projected). */
  usage: string;
  /** How it is priced: the formula with the prices it uses. */
  rule: string;
  /** null: not estimated (the price was not found, or the figure not measured); `note` says which. */
  usd: number | null;
  note?: string;
  prices: PriceId[];
}

export interface CostEstimate {
  region: string;
  pricesAsOf: string;
  run: CostLine[];
  perDay: CostLine[];
  perMonth: CostLine[];
  totals: { run: number; perDay: number; perMonth: number };
  assumptions: string[];
  /** The prices the lines use, each with its page and where its figure was read. */
  prices: Price[];
}

type Prices = Readonly<Record<PriceId, Price>>;

const per = (p: Price) => (p.usd === null ? 'price not found' : `$${p.usd} per ${p.unit}`);
const objectsText = (n: number) => `${formatCount(n)} object${n === 1 ? '' : 's'}`;

/** Sums the lines' dollars; null lines are left out (and listed by the caller). */
const total = (lines: CostLine[]) => lines.reduce((n, l) => n + (l.usd ?? 0), 0);

/** A line whose prices might be missing: null dollars and a note when any is. */
function priced(
  prices: Prices,
  ids: PriceId[],
  l: Omit<CostLine, 'usd' | 'prices'>,
  compute: (p: (id: PriceId) => number) => number,
): CostLine {
  const missing = ids.filter((id) => prices[id].usd === null);
  if (missing.length > 0)
    return {
      ...l,
      usd: null,
      prices: ids,
      note: `not estimated: no price found for ${missing.map((id) => prices[id].item).join('; ')} (see the price table)`,
    };
  return { ...l, usd: compute((id) => prices[id].usd as number), prices: ids };
}

/**
 * Athena's bill for a list of queries: succeeded and cancelled queries, each rounded up to the MB with a 10 MB
 * minimum; failed queries are free. DDL scans nothing, so it is free under the same rule; a CTAS, which Athena may
 * type as DDL, scans its source and is billed for it.
 */
export function athenaBill(queries: RunUsage['athena']['queries'], tbPrice: number) {
  let billedBytes = 0;
  let billed = 0;
  let atMinimum = 0;
  let readNothing = 0;
  for (const q of queries) {
    if (!(q.state === 'SUCCEEDED' || q.state === 'CANCELLED')) continue;
    const b = athenaCostUsd(q.bytesScanned).billedBytes;
    if (b === 0) {
      if (q.statementType !== 'DDL') readNothing++;
      continue;
    }
    billed++;
    if (b === 10 * 1024 * 1024 && q.bytesScanned <= b) atMinimum++;
    billedBytes += b;
  }
  return { billed, atMinimum, readNothing, billedBytes, usd: (billedBytes / 1e12) * tbPrice };
}

function runLines(u: RunUsage, prices: Prices): CostLine[] {
  const hours = u.wallHours;
  const month = hours / HOURS_PER_MONTH;
  const t = u.tables;
  const scanned = u.athena.queries.reduce((n, q) => n + q.bytesScanned, 0);
  const bill = athenaBill(u.athena.queries, prices['athena.tb'].usd ?? 0);
  const lines: CostLine[] = [
    priced(
      prices,
      ['firehose.icebergGb'],
      {
        id: 'firehose',
        service: 'Data Firehose → Iceberg',
        usage: `${formatBytes(u.firehose.bytes)} of JSON ingested (${formatCount(u.firehose.records)} records)`,
        rule: `GB ingested × ${per(prices['firehose.icebergGb'])}`,
      },
      (p) => (u.firehose.bytes / GB) * p('firehose.icebergGb'),
    ),
    priced(
      prices,
      ['s3tables.storageGbMonth'],
      {
        id: 's3tables-storage',
        service: 'S3 Tables storage',
        usage: `${formatBytes(t.bytes)} in the table bucket at the end, for ${hours.toFixed(3)} h (${t.source})`,
        rule: `GB × hours ÷ ${HOURS_PER_MONTH} × ${per(prices['s3tables.storageGbMonth'])}`,
      },
      (p) => (t.bytes / GB) * month * p('s3tables.storageGbMonth'),
    ),
    priced(
      prices,
      ['s3tables.put1k'],
      {
        id: 's3tables-put',
        service: 'S3 Tables PUT requests',
        usage: `${formatCount(t.objectsWritten)} objects written by ${formatCount(t.commits)} commits (their data and delete files, 3 metadata files each)`,
        rule: `PUTs ÷ 1,000 × ${per(prices['s3tables.put1k'])}`,
      },
      (p) => (t.objectsWritten / 1000) * p('s3tables.put1k'),
    ),
    priced(
      prices,
      ['s3tables.get1k'],
      {
        id: 's3tables-get',
        service: 'S3 Tables GET requests',
        usage: `at most ${formatCount(t.objects * t.queriesReadingData)} (every object of the bucket, for each of ${formatCount(t.queriesReadingData)} queries that read data)`,
        rule: `GETs ÷ 1,000 × ${per(prices['s3tables.get1k'])}`,
        note: 'an upper bound: Athena reads the metadata and only the data files it does not prune, which the lab cannot count',
      },
      (p) => ((t.objects * t.queriesReadingData) / 1000) * p('s3tables.get1k'),
    ),
    priced(
      prices,
      ['s3tables.monitoring1kObjectsMonth'],
      {
        id: 's3tables-monitoring',
        service: 'S3 Tables object monitoring',
        usage: `${objectsText(t.objects)}, for ${hours.toFixed(3)} h`,
        rule: `objects ÷ 1,000 × hours ÷ ${HOURS_PER_MONTH} × ${per(prices['s3tables.monitoring1kObjectsMonth'])}`,
      },
      (p) => (t.objects / 1000) * month * p('s3tables.monitoring1kObjectsMonth'),
    ),
  ];
  for (const c of t.compaction) {
    const [objects, bytes]: [PriceId, PriceId] =
      c.strategy === 'sort'
        ? ['s3tables.sort1kObjects', 's3tables.sortGb']
        : ['s3tables.binpack1kObjects', 's3tables.binpackGb'];
    lines.push(
      priced(
        prices,
        [objects, bytes],
        {
          id: `s3tables-compaction-${c.strategy}`,
          service: `S3 Tables compaction (${c.strategy})`,
          usage: `${formatCount(c.objects)} objects, ${formatBytes(c.bytes)} processed by ${formatCount(c.commits)} compaction${c.commits === 1 ? '' : 's'}`,
          rule: `objects ÷ 1,000 × ${per(prices[objects])} + GB × ${per(prices[bytes])}`,
        },
        (p) => (c.objects / 1000) * p(objects) + (c.bytes / GB) * p(bytes),
      ),
    );
  }
  lines.push(
    priced(
      prices,
      ['athena.tb'],
      {
        id: 'athena',
        service: 'Athena',
        usage:
          `${formatCount(u.athena.queries.length)} queries (${u.athena.source}), ${formatCount(bill.billed)} billed, ` +
          `${formatCount(bill.atMinimum)} of them at the 10 MB minimum: ${formatBytes(bill.billedBytes)} billed for ${formatBytes(scanned)} scanned`,
        rule: `each query's bytes rounded up to the MB, at least 10 MB (nothing for a failed query or one that read nothing) ÷ 10¹² × ${per(prices['athena.tb'])}`,
        ...(bill.readNothing > 0
          ? {
              note:
                `${formatCount(bill.readNothing)} ${bill.readNothing === 1 ? 'query' : 'queries'} read 0 bytes (answered from metadata), not billed here; AWS's page ` +
                `exempts only DDL and failed queries, so if Athena bills them its 10 MB minimum, add up to ` +
                `$${((bill.readNothing * 10 * 1024 * 1024 * (prices['athena.tb'].usd ?? 0)) / 1e12).toFixed(4)}`,
            }
          : {}),
      },
      () => bill.usd,
    ),
    priced(
      prices,
      ['cloudwatch.alarmMonth'],
      {
        id: 'cloudwatch-alarms',
        service: 'CloudWatch alarms',
        usage: `${formatCount(u.alarms.count)} alarms (${u.alarms.source}), for ${hours.toFixed(3)} h`,
        rule: `alarms × hours ÷ ${HOURS_PER_MONTH} × ${per(prices['cloudwatch.alarmMonth'])}`,
      },
      (p) => u.alarms.count * month * p('cloudwatch.alarmMonth'),
    ),
    priced(
      prices,
      ['cloudwatch.metricMonth'],
      {
        id: 'cloudwatch-metrics',
        service: 'CloudWatch custom metrics',
        usage: `${formatCount(u.customMetrics.count)} metrics (${u.customMetrics.source}), for ${hours.toFixed(3)} h`,
        rule: `metrics × hours ÷ ${HOURS_PER_MONTH} × ${per(prices['cloudwatch.metricMonth'])}`,
      },
      (p) => u.customMetrics.count * month * p('cloudwatch.metricMonth'),
    ),
  );
  lines.push(...snapshotLines(u, prices, 'all'));
  lines.push(bucketLine(u, prices, hours, null));
  lines.push(notificationLine(u.notifications, prices));
  return lines;
}

/** The snapshot pipeline's Lambda and Step Functions lines, for all of this run's executions or for one day. */
function snapshotLines(u: RunUsage, prices: Prices, which: 'all' | 'daily'): CostLine[] {
  const s = u.snapshots;
  if (!s) {
    const absent = (id: string, service: string): CostLine => ({
      id,
      service,
      usage: 'the daily snapshot did not run in this report',
      rule: '',
      usd: null,
      note: 'not measured',
      prices: [],
    });
    return [absent('lambda', 'Lambda (snapshot handlers)'), absent('sfn', 'Step Functions (daily snapshot)')];
  }
  const run = which === 'all' ? s.all : s.daily;
  const what = which === 'all' ? `${formatCount(s.executions)} executions` : 'one daily execution';
  const gbSeconds = (s.memoryMb / 1024) * (run.lambdaMs / 1000);
  const lines = [
    priced(
      prices,
      ['lambda.1mRequests', 'lambda.gbSecond'],
      {
        id: 'lambda',
        service: 'Lambda (snapshot handlers)',
        usage: `${formatCount(run.lambdaInvocations)} invocations, ${gbSeconds.toFixed(2)} GB-s (${s.memoryMb} MB for at most the ${(run.lambdaMs / 1000).toFixed(1)} s of ${what})`,
        rule: `invocations ÷ 10⁶ × ${per(prices['lambda.1mRequests'])} + GB-s × ${per(prices['lambda.gbSecond'])}`,
      },
      (p) => (run.lambdaInvocations / 1e6) * p('lambda.1mRequests') + gbSeconds * p('lambda.gbSecond'),
    ),
    priced(
      prices,
      ['sfn.1kTransitions'],
      {
        id: 'sfn',
        service: 'Step Functions (daily snapshot)',
        usage: `${formatCount(run.stateTransitions)} state transitions in ${what}`,
        rule: `transitions ÷ 1,000 × ${per(prices['sfn.1kTransitions'])}`,
      },
      (p) => (run.stateTransitions / 1000) * p('sfn.1kTransitions'),
    ),
  ];
  return lines;
}

/** General purpose buckets: what they hold for `hours`, plus the objects written (all of them, or per day). */
function bucketLine(u: RunUsage, prices: Prices, hours: number, writtenPerDay: number | null): CostLine {
  const bytes = u.buckets.reduce((n, b) => n + b.bytes, 0);
  const objects = u.buckets.reduce((n, b) => n + b.objects, 0);
  const written = writtenPerDay ?? objects;
  const held = u.buckets.map((b) => `${b.role} ${objectsText(b.objects)}, ${formatBytes(b.bytes)}`);
  return priced(
    prices,
    ['s3.standardGbMonth', 's3.put1k'],
    {
      id: 's3',
      service: 'S3 (error output, snapshots)',
      usage: `${held.join('; ') || 'nothing'}; ${formatCount(written)} PUTs`,
      rule: `GB × hours ÷ ${HOURS_PER_MONTH} × ${per(prices['s3.standardGbMonth'])} + PUTs ÷ 1,000 × ${per(prices['s3.put1k'])}`,
    },
    (p) =>
      (bytes / GB) * (hours / HOURS_PER_MONTH) * p('s3.standardGbMonth') + (written / 1000) * p('s3.put1k'),
  );
}

function notificationLine(count: number, prices: Prices): CostLine {
  return priced(
    prices,
    ['sns.email'],
    {
      id: 'sns',
      service: 'SNS e-mail',
      usage: `${formatCount(count)} notifications`,
      rule: `notifications × ${per(prices['sns.email'])}`,
    },
    (p) => count * p('sns.email'),
  );
}

/** A day of the lab left running: nothing sent, the daily snapshot once, everything stored kept. */
function dayLines(u: RunUsage, prices: Prices): CostLine[] {
  const day = 24 / HOURS_PER_MONTH;
  const t = u.tables;
  const daily = u.snapshots?.daily;
  const bill = daily
    ? athenaBill(
        daily.queryBytes.map((bytesScanned) => ({ workgroup: '', state: 'SUCCEEDED', bytesScanned })),
        prices['athena.tb'].usd ?? 0,
      )
    : undefined;
  const idle = (id: string, service: string, why: string): CostLine => ({
    id,
    service,
    usage: why,
    rule: '',
    usd: 0,
    prices: [],
  });
  return [
    idle('firehose', 'Data Firehose → Iceberg', 'nothing sent while the lab is left alone'),
    priced(
      prices,
      ['s3tables.storageGbMonth'],
      {
        id: 's3tables-storage',
        service: 'S3 Tables storage',
        usage: `${formatBytes(t.bytes)} kept for 24 h`,
        rule: `GB × 24 ÷ ${HOURS_PER_MONTH} × ${per(prices['s3tables.storageGbMonth'])}`,
      },
      (p) => (t.bytes / GB) * day * p('s3tables.storageGbMonth'),
    ),
    priced(
      prices,
      ['s3tables.monitoring1kObjectsMonth'],
      {
        id: 's3tables-monitoring',
        service: 'S3 Tables object monitoring',
        usage: `${objectsText(t.objects)} for 24 h`,
        rule: `objects ÷ 1,000 × 24 ÷ ${HOURS_PER_MONTH} × ${per(prices['s3tables.monitoring1kObjectsMonth'])}`,
      },
      (p) => (t.objects / 1000) * day * p('s3tables.monitoring1kObjectsMonth'),
    ),
    idle('s3tables-compaction', 'S3 Tables compaction', 'nothing new to compact'),
    bill
      ? priced(
          prices,
          ['athena.tb'],
          {
            id: 'athena',
            service: 'Athena',
            usage: `the daily snapshot's ${formatCount(daily?.queryBytes.length ?? 0)} queries, ${formatBytes(bill.billedBytes)} billed`,
            rule: `each query at least 10 MB ÷ 10¹² × ${per(prices['athena.tb'])}`,
          },
          () => bill.usd,
        )
      : {
          id: 'athena',
          service: 'Athena',
          usage: 'the daily snapshot did not run in this report',
          rule: '',
          usd: null,
          note: 'not measured',
          prices: [],
        },
    priced(
      prices,
      ['cloudwatch.alarmMonth'],
      {
        id: 'cloudwatch-alarms',
        service: 'CloudWatch alarms',
        usage: `${formatCount(u.alarms.count)} alarms for 24 h`,
        rule: `alarms × 24 ÷ ${HOURS_PER_MONTH} × ${per(prices['cloudwatch.alarmMonth'])}`,
      },
      (p) => u.alarms.count * day * p('cloudwatch.alarmMonth'),
    ),
    priced(
      prices,
      ['cloudwatch.metricMonth'],
      {
        id: 'cloudwatch-metrics',
        service: 'CloudWatch custom metrics',
        usage: `${formatCount(u.customMetrics.count)} metrics, reported daily`,
        rule: `metrics × 24 ÷ ${HOURS_PER_MONTH} × ${per(prices['cloudwatch.metricMonth'])}`,
      },
      (p) => u.customMetrics.count * day * p('cloudwatch.metricMonth'),
    ),
    ...snapshotLines(u, prices, 'daily'),
    bucketLine(u, prices, 24, daily?.objectsWritten ?? 0),
  ];
}

/** A day's lines × the days of a month (monthly fees at their monthly rate). */
function monthLines(day: CostLine[]): CostLine[] {
  return day.map((l) => ({
    ...l,
    usage: `${l.usage}, × ${DAYS_PER_MONTH.toFixed(2)} days`,
    usd: l.usd === null ? null : l.usd * DAYS_PER_MONTH,
  }));
}

export function estimateCost(usage: RunUsage, prices: Prices = PRICES): CostEstimate {
  const run = runLines(usage, prices);
  const perDay = dayLines(usage, prices);
  const perMonth = monthLines(perDay);
  const used = new Set([...run, ...perDay].flatMap((l) => l.prices));
  return {
    region: PRICE_REGION,
    pricesAsOf: PRICES_AS_OF,
    run,
    perDay,
    perMonth,
    totals: { run: total(run), perDay: total(perDay), perMonth: total(perMonth) },
    assumptions: [
      `List prices in ${PRICE_REGION} as read on ${PRICES_AS_OF}, no free tier (an account's free tier is its own).`,
      `A GB is 1,024³ bytes and a month ${HOURS_PER_MONTH} hours, as AWS's pricing examples count them; Athena's TB is 10¹² bytes, as \`pnpm query\` bills it.`,
      'Left running: no more flows sent, the daily snapshot once a day as this run measured it, every table, bucket, alarm and metric kept.',
      'Lines marked "not estimated" are left out of the totals.',
    ],
    prices: [...used].map((id) => prices[id]),
  };
}
