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
  /** null: unknown (the price was not found, or the figure not measured); `unknown` and `note` say which. */
  usd: number | null;
  /** Why `usd` is null: never shown, nor summed, as $0. */
  unknown?: 'not measured' | 'not estimated';
  note?: string;
  prices: PriceId[];
}

export interface CostEstimate {
  region: string;
  pricesAsOf: string;
  run: CostLine[];
  perDay: CostLine[];
  perMonth: CostLine[];
  /**
   * Sums of the known lines; `excluded` names the services of the unknown lines each sum leaves out (absent in
   * reports written before it was kept).
   */
  totals: {
    run: number;
    perDay: number;
    perMonth: number;
    excluded?: { run: string[]; perDay: string[]; perMonth: string[] };
  };
  assumptions: string[];
  /** The prices the lines use, each with its page and where its figure was read. */
  prices: Price[];
}

type Prices = Readonly<Record<PriceId, Price>>;

const per = (p: Price) => (p.usd === null ? 'price not found' : `$${p.usd} per ${p.unit}`);
const objectsText = (n: number) => `${formatCount(n)} object${n === 1 ? '' : 's'}`;

/** Sums the known lines' dollars; the unknown ones are left out, and named in `excluded`. */
const total = (lines: CostLine[]) => lines.reduce((n, l) => n + (l.usd ?? 0), 0);
const excluded = (lines: CostLine[]) => [
  ...new Set(lines.filter((l) => l.usd === null).map((l) => l.service)),
];

/** A line whose figure this run did not measure: unknown, never $0. */
export function notMeasured(id: string, service: string, why: string, prices: PriceId[] = []): CostLine {
  return {
    id,
    service,
    usage: why,
    rule: '',
    usd: null,
    unknown: 'not measured',
    note: 'not measured',
    prices,
  };
}

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
      unknown: 'not estimated',
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
        // For an Iceberg destination Firehose bills the GB ingested, not each record rounded up to 5 KB.
        rule: `GB ingested (no 5 KB rounding per record for Iceberg) × ${per(prices['firehose.icebergGb'])}`,
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
        usage:
          `${formatCount(t.objects * t.queriesReadingData)} GETs assumed: one per object in the table bucket at the end ` +
          `(${formatCount(t.objects)}), for each of ${formatCount(t.queriesReadingData)} queries that read data`,
        rule: `objects × queries that read data ÷ 1,000 × ${per(prices['s3tables.get1k'])}`,
        note:
          'a rough figure, neither an upper nor a lower bound: Athena skips the data files it prunes, but reads a ' +
          'Parquet file in several ranged GETs, reads metadata files for queries that read no data, and the bucket ' +
          'held other objects during the run than at its end; the lab cannot count the GETs themselves',
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
    metricLine(prices, u.customMetrics, u.customMetrics.metricHours, 'this run'),
  );
  lines.push(...snapshotLines(u, prices, 'all'));
  lines.push(
    ...bucketLines(
      u,
      prices,
      hours,
      u.buckets.reduce((n, b) => n + b.written, 0),
    ),
  );
  lines.push(notificationLine(u.notifications, prices));
  return lines;
}

/**
 * Custom metrics: CloudWatch prorates each by the hour and meters it only in the hours it is sent, so the fee is
 * metric-hours ÷ 730 × the monthly price — not the metrics × the hours the lab exists.
 */
function metricLine(
  prices: Prices,
  m: RunUsage['customMetrics'],
  metricHours: number | null,
  when: string,
): CostLine {
  const id = 'cloudwatch-metrics';
  const service = 'CloudWatch custom metrics';
  if (m.count === null || metricHours === null)
    return notMeasured(id, service, m.source, ['cloudwatch.metricMonth']);
  return priced(
    prices,
    ['cloudwatch.metricMonth'],
    {
      id,
      service,
      usage: `${formatCount(m.count)} metrics (${m.source}), sent in ${formatCount(metricHours)} metric-hours ${when}`,
      rule: `metric-hours sent ÷ ${HOURS_PER_MONTH} × ${per(prices['cloudwatch.metricMonth'])}`,
    },
    (p) => (metricHours / HOURS_PER_MONTH) * p('cloudwatch.metricMonth'),
  );
}

/** The snapshot pipeline's Lambda and Step Functions lines, for all of this run's executions or for one day. */
function snapshotLines(u: RunUsage, prices: Prices, which: 'all' | 'daily'): CostLine[] {
  const s = u.snapshots;
  if (!s) {
    const why = 'the daily snapshot did not run in this report';
    return [
      notMeasured('lambda', 'Lambda (snapshot handlers)', why, ['lambda.1mRequests', 'lambda.gbSecond']),
      notMeasured('sfn', 'Step Functions (daily snapshot)', why, ['sfn.1kTransitions']),
    ];
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

/**
 * General purpose buckets: what they hold for `hours` (earlier runs' objects too: they are stored meanwhile), and the
 * PUTs of the objects written (this run's, or a day's); `written` null when a day's writes were not measured.
 */
function bucketLines(u: RunUsage, prices: Prices, hours: number, written: number | null): CostLine[] {
  const bytes = u.buckets.reduce((n, b) => n + b.bytes, 0);
  const held = u.buckets.map((b) => `${b.role} ${objectsText(b.objects)}, ${formatBytes(b.bytes)}`);
  const service = 'S3 (error output, snapshots)';
  const storage = priced(
    prices,
    ['s3.standardGbMonth'],
    {
      id: 's3-storage',
      service: `${service}: storage`,
      usage: `${held.join('; ') || 'nothing'}, for ${hours.toFixed(3)} h`,
      rule: `GB × hours ÷ ${HOURS_PER_MONTH} × ${per(prices['s3.standardGbMonth'])}`,
    },
    (p) => (bytes / GB) * (hours / HOURS_PER_MONTH) * p('s3.standardGbMonth'),
  );
  const puts =
    written === null
      ? notMeasured('s3-put', `${service}: PUTs`, 'the daily snapshot did not run in this report', [
          's3.put1k',
        ])
      : priced(
          prices,
          ['s3.put1k'],
          {
            id: 's3-put',
            service: `${service}: PUTs`,
            usage: `${objectsText(written)} written`,
            rule: `PUTs ÷ 1,000 × ${per(prices['s3.put1k'])}`,
          },
          (p) => (written / 1000) * p('s3.put1k'),
        );
  return [storage, puts];
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
  const queryBytes = daily?.queryBytes ?? null;
  const bill = queryBytes
    ? athenaBill(
        queryBytes.map((bytesScanned) => ({ workgroup: '', state: 'SUCCEEDED', bytesScanned })),
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
            usage: `the daily snapshot's ${formatCount(queryBytes?.length ?? 0)} queries, ${formatBytes(bill.billedBytes)} billed`,
            rule: `each query at least 10 MB ÷ 10¹² × ${per(prices['athena.tb'])}`,
          },
          () => bill.usd,
        )
      : notMeasured(
          'athena',
          'Athena',
          daily
            ? "the daily snapshot's queries: the workgroups' query history could not be read"
            : 'the daily snapshot did not run in this report',
          ['athena.tb'],
        ),
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
    metricLine(prices, u.customMetrics, u.customMetrics.dailyMetricHours, "in the day's execution"),
    ...snapshotLines(u, prices, 'daily'),
    ...bucketLines(u, prices, 24, daily ? daily.objectsWritten : null),
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
    totals: {
      run: total(run),
      perDay: total(perDay),
      perMonth: total(perMonth),
      excluded: { run: excluded(run), perDay: excluded(perDay), perMonth: excluded(perMonth) },
    },
    assumptions: [
      `List prices in ${PRICE_REGION} as read on ${PRICES_AS_OF}, no free tier (an account's free tier is its own).`,
      `A GB is 1,024³ bytes and a month ${HOURS_PER_MONTH} hours, as AWS's pricing examples count them; Athena's TB is 10¹² bytes, as \`pnpm query\` bills it, and its MB (the rounding and the 10 MB minimum) 1,024² bytes.`,
      'Left running: no more flows sent, the daily snapshot once a day as this run measured it, every table, bucket, alarm and metric kept.',
      'Lines marked "not measured" (no figure from this run) or "not estimated" (no price found) are unknown, not $0: each total leaves them out and names them.',
    ],
    prices: [...used].map((id) => prices[id]),
  };
}
