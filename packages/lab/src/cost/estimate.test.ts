// The cost estimate, line by line from known figures, and each line moving with its own measured figure only.
import { describe, expect, test } from '@jest/globals';
import { costText, formatCostUsd } from './cost-text';
import { DAYS_PER_MONTH, estimateCost, type CostLine } from './estimate';
import { PRICES, type PriceId } from './prices';
import { sampleUsage } from '../../test/support/report-fixture';
import type { RunUsage } from './usage';

const MiB = 1024 * 1024;
const usage = sampleUsage;

const byId = (lines: CostLine[]) => Object.fromEntries(lines.map((l) => [l.id, l.usd]));

describe('what this run would cost on AWS', () => {
  test.each<[string, number | null]>([
    ['firehose', 0.075], // 1 GB ingested × $0.075
    ['s3tables-storage', 10 * 0.0265 * 0.01], // 10 GB for a hundredth of a month
    ['s3tables-put', 2 * 0.005], // 2,000 PUTs
    ['s3tables-get', 4 * 0.0004], // 1,000 objects × 4 queries = 4,000 GETs assumed
    ['s3tables-monitoring', 0.025 * 0.01], // 1,000 objects for a hundredth of a month
    ['s3tables-compaction-binpack', 0.002 + 0.005], // 1,000 objects and 1 GB processed
    ['s3tables-compaction-sort', null], // no price found: not estimated
    ['athena', ((91 * MiB) / 1e12) * 5], // 10 + 50 + 21 + 10 MiB billed: failed and 0-byte queries are free
    ['cloudwatch-alarms', 3 * 0.1 * 0.01],
    ['cloudwatch-metrics', (8 / 730) * 0.3], // 4 metrics sent in 2 clock hours: 8 metric-hours
    ['lambda', (3 / 1e6) * 0.2 + 10 * 0.0000166667], // 3 invocations, 1 GB × 10 s
    ['sfn', 8 * 0.000025],
    ['s3-storage', 0.023 * 0.01], // 1 GB for a hundredth of a month
    ['s3-put', 0.01 * 0.005], // 10 objects written by this run
    ['sns', null],
  ])('%s: this run', (id, expected) => {
    const line = estimateCost(usage()).run.find((l) => l.id === id);
    if (expected === null) {
      expect(line?.usd).toBeNull();
      expect(line?.note).toMatch(/^not estimated: no price found for /);
    } else expect(line?.usd).toBeCloseTo(expected, 12);
  });

  test.each<[string, number]>([
    ['firehose', 0],
    ['s3tables-storage', (10 * 0.0265 * 24) / 730],
    ['s3tables-monitoring', (0.025 * 24) / 730],
    ['s3tables-compaction', 0],
    ['athena', ((40 * MiB) / 1e12) * 5], // the daily run's 2 queries: 10 MiB minimum + 30 MiB
    ['cloudwatch-alarms', (3 * 0.1 * 24) / 730],
    ['cloudwatch-metrics', (4 * 0.3) / 730], // 4 metrics sent in the daily execution's one hour
    ['lambda', (2 / 1e6) * 0.2 + 5 * 0.0000166667],
    ['sfn', 4 * 0.000025],
    ['s3-storage', (0.023 * 24) / 730],
    ['s3-put', 0.005 * 0.005], // the daily run's 5 objects
  ])('%s: a day left running, and a month of such days', (id, expected) => {
    const e = estimateCost(usage());
    expect(byId(e.perDay)[id]).toBeCloseTo(expected, 12);
    expect(byId(e.perMonth)[id]).toBeCloseTo(expected * DAYS_PER_MONTH, 10);
  });

  test('queries that read nothing are not billed, and the Athena line says what they would add at the minimum', () => {
    const athena = estimateCost(usage()).run.find((l) => l.id === 'athena');
    // One succeeded DML query read 0 bytes (the DDL one is exempt by AWS's page).
    expect(athena?.note).toBe(
      "1 query read 0 bytes (answered from metadata), not billed here; AWS's page exempts only DDL and " +
        'failed queries, so if Athena bills them its 10 MB minimum, add up to $0.0001',
    );
  });

  test("a month's alarm fee is the alarm's monthly price", () => {
    expect(byId(estimateCost(usage()).perMonth)['cloudwatch-alarms']).toBeCloseTo(0.3, 12);
  });

  test.each<[string, (u: RunUsage) => void]>([
    ['firehose', (u) => void (u.firehose.bytes *= 2)],
    ['s3tables-storage', (u) => void (u.tables.bytes *= 2)],
    ['s3tables-put', (u) => void (u.tables.objectsWritten += 1000)],
    ['s3tables-get', (u) => void (u.tables.queriesReadingData += 1)],
    ['s3tables-compaction-binpack', (u) => void ((u.tables.compaction[0] as { bytes: number }).bytes *= 3)],
    ['athena', (u) => void u.athena.queries.push({ workgroup: 'x', state: 'SUCCEEDED', bytesScanned: 1 })],
    ['cloudwatch-alarms', (u) => void (u.alarms.count += 1)],
    ['cloudwatch-metrics', (u) => void ((u.customMetrics.metricHours as number) += 1)],
    ['lambda', (u) => void ((u.snapshots as { all: { lambdaMs: number } }).all.lambdaMs *= 2)],
    ['sfn', (u) => void ((u.snapshots as { all: { stateTransitions: number } }).all.stateTransitions += 40)],
    ['s3-storage', (u) => void ((u.buckets[0] as { bytes: number }).bytes *= 2)],
    ['s3-put', (u) => void ((u.buckets[0] as { written: number }).written += 1000)],
  ])('a different measured figure moves the %s line, and no other', (id, change) => {
    const before = byId(estimateCost(usage()).run);
    const changed = usage();
    change(changed);
    const after = byId(estimateCost(changed).run);
    expect(after[id]).not.toBeCloseTo(before[id] as number, 12);
    for (const other of Object.keys(before).filter((k) => k !== id && k !== 's3tables-monitoring'))
      expect([other, after[other]]).toEqual([other, before[other]]);
  });

  test('custom metrics: billed for the hours they are sent, so a month of one execution a day is metric-hours, not 24 h a day (B4)', () => {
    const u = usage();
    u.customMetrics = { count: 4, metricHours: 8, dailyMetricHours: 4, source: 'test' };
    const e = estimateCost(u);
    // 4 metrics × 1 hour a day × 730/24 days ÷ 730 h × $0.30 = $0.05 a month (not 4 × $0.30 = $1.20).
    expect(byId(e.perMonth)['cloudwatch-metrics']).toBeCloseTo((4 * 0.3) / 24, 12);
    expect(byId(e.perDay)['cloudwatch-metrics']).toBeCloseTo((4 * 0.3) / 730, 12);
    // The daily execution spanning two clock hours doubles it.
    u.customMetrics.dailyMetricHours = 8;
    expect(byId(estimateCost(u).perDay)['cloudwatch-metrics']).toBeCloseTo((8 * 0.3) / 730, 12);
    expect(e.perDay.find((l) => l.id === 'cloudwatch-metrics')?.rule).toBe(
      'metric-hours sent ÷ 730 × $0.3 per metric a month',
    );
  });

  test('Firehose to Iceberg: the GB ingested, not each record rounded up to 5 KB, so more, smaller records cost the same', () => {
    const u = usage();
    const before = byId(estimateCost(u).run).firehose;
    u.firehose.records *= 1000;
    expect(byId(estimateCost(u).run).firehose).toBe(before);
    u.firehose.bytes = 5 * 1024; // one 5 KB record: 5 KiB ÷ 1 GiB × $0.075
    expect(byId(estimateCost(u).run).firehose).toBeCloseTo(((5 * 1024) / 1024 ** 3) * 0.075, 15);
  });

  test('S3 Tables monitoring and compaction: per 1,000 objects (and per GB processed), from known figures', () => {
    const u = usage();
    u.tables.objects = 2500;
    u.tables.compaction = [{ strategy: 'binpack', commits: 3, objects: 500, bytes: 2 * 1024 ** 3 }];
    const run = byId(estimateCost(u).run);
    expect(run['s3tables-monitoring']).toBeCloseTo(2.5 * 0.025 * 0.01, 12);
    expect(run['s3tables-compaction-binpack']).toBeCloseTo(0.5 * 0.002 + 2 * 0.005, 12);
  });

  test('the GET line says what its figure is: one GET per object at the end for each query that read data, not a bound (F3)', () => {
    const get = estimateCost(usage()).run.find((l) => l.id === 's3tables-get');
    expect(get?.usage).toBe(
      '4,000 GETs assumed: one per object in the table bucket at the end (1,000), for each of 4 queries that read data',
    );
    expect(get?.rule).toBe('objects × queries that read data ÷ 1,000 × $0.0004 per 1,000 requests');
    expect(get?.note).toMatch(/^a rough figure, neither an upper nor a lower bound: /);
    expect(`${get?.usage} ${get?.note}`).not.toMatch(/at most|upper bound:/);
  });

  test('a figure not measured is unknown, never $0: its line says "not measured" and each total names what it leaves out (F1/F2)', () => {
    const u = usage();
    u.customMetrics = {
      count: null,
      metricHours: null,
      dailyMetricHours: null,
      source: 'not seen from the lab on AWS',
    };
    const e = estimateCost(u);
    for (const lines of [e.run, e.perDay, e.perMonth]) {
      const metrics = lines.find((l) => l.id === 'cloudwatch-metrics');
      expect(metrics).toMatchObject({ usd: null, unknown: 'not measured' });
    }
    const full = estimateCost(usage());
    const known = (lines: CostLine[]) => lines.filter((l) => l.id !== 'cloudwatch-metrics');
    expect(e.totals.run).toBeCloseTo(
      known(full.run).reduce((n, l) => n + (l.usd ?? 0), 0),
      12,
    );
    expect(e.totals.excluded?.run).toEqual([
      'S3 Tables compaction (sort)',
      'CloudWatch custom metrics',
      'SNS e-mail',
    ]);
    expect(e.totals.excluded?.perMonth).toContain('CloudWatch custom metrics');
    const text = costText(e);
    expect(text).toMatch(/^ +not measured {2}CloudWatch custom metrics +not seen from the lab on AWS$/m);
    expect(text).toMatch(/^ +not estimated {2}SNS e-mail /m);
    expect(text).not.toMatch(/^ +(\$0|n\/a) {2}CloudWatch custom metrics/m);
    expect(text).toMatch(
      /this run in all, excluding the unknown: S3 Tables compaction \(sort\), CloudWatch custom metrics, SNS e-mail$/m,
    );
    expect(text).toMatch(/a month \(mostly .*\), excluding the unknown: CloudWatch custom metrics$/m);
  });

  test("a day's Athena without the query history (the Lambdas' queries are only there) is not measured, not $0", () => {
    const u = usage();
    (u.snapshots as { daily: { queryBytes: number[] | null } }).daily.queryBytes = null;
    expect(estimateCost(u).perDay.find((l) => l.id === 'athena')).toMatchObject({
      usd: null,
      unknown: 'not measured',
      usage: "the daily snapshot's queries: the workgroups' query history could not be read",
    });
  });

  test("without the daily snapshot, a day's S3 PUTs are not measured (not 0), while its storage is still priced", () => {
    const u = usage();
    delete u.snapshots;
    const day = estimateCost(u).perDay;
    expect(day.find((l) => l.id === 's3-put')).toMatchObject({ usd: null, unknown: 'not measured' });
    expect(day.find((l) => l.id === 's3-storage')?.usd).toBeCloseTo((0.023 * 24) / 730, 12);
  });

  test('the object count moves storage-by-object lines: monitoring and the GET bound', () => {
    const changed = usage();
    changed.tables.objects *= 2;
    const before = byId(estimateCost(usage()).run);
    const after = byId(estimateCost(changed).run);
    expect(after['s3tables-monitoring']).toBeCloseTo(2 * (before['s3tables-monitoring'] as number), 12);
    expect(after['s3tables-get']).toBeCloseTo(2 * (before['s3tables-get'] as number), 12);
  });

  test('a price that was not found leaves its line out of the totals and says so, instead of guessing', () => {
    const prices = { ...PRICES, 'athena.tb': { ...PRICES['athena.tb'], usd: null } };
    const e = estimateCost(usage(), prices as typeof PRICES);
    const athena = e.run.find((l) => l.id === 'athena');
    expect(athena?.usd).toBeNull();
    expect(athena?.note).toMatch(/no price found for SQL queries/);
    const full = estimateCost(usage());
    const athenaUsd = full.run.find((l) => l.id === 'athena')?.usd as number;
    expect(e.totals.run).toBeCloseTo(full.totals.run - athenaUsd, 12);
  });

  test('without the daily snapshot in the report, its lines say they were not measured', () => {
    const u = usage();
    delete u.snapshots;
    const e = estimateCost(u);
    for (const id of ['lambda', 'sfn']) expect(byId(e.run)[id]).toBeNull();
    expect(e.perDay.find((l) => l.id === 'athena')).toMatchObject({ usd: null, note: 'not measured' });
    expect(costText(e)).toMatch(/not in the totals, not measured in this run: Lambda \(snapshot handlers\)/);
  });

  test('every price cites an AWS pricing page and says where its figure was read; the table is dated', () => {
    const e = estimateCost(usage());
    expect(e).toMatchObject({ region: 'us-east-1', pricesAsOf: '2026-12-01' });
    for (const id of Object.keys(PRICES) as PriceId[]) {
      expect(PRICES[id].source).toMatch(/^https:\/\/aws\.amazon\.com\/[a-z0-9-]+\/pricing\/$/);
      expect(PRICES[id].seen.length).toBeGreaterThan(20);
      if (PRICES[id].usd === null) expect(PRICES[id].seen).toMatch(/^not found/);
    }
    expect(e.prices.map((p) => p.id)).toContain('athena.tb');
  });

  test('the terminal lines: one per service, the run total, a day and a month, what is not in the totals', () => {
    const text = costText(estimateCost(usage()));
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      'What this run would cost on AWS (us-east-1, list prices read on 2026-12-01, no free tier):',
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^ +\$0\.075 {2}Data Firehose → Iceberg +1\.00 GiB of JSON/),
    );
    expect(text).toMatch(
      /^ +\$0\.\d+ {2}this run in all, excluding the unknown: S3 Tables compaction \(sort\), SNS e-mail$/m,
    );
    expect(text).toMatch(
      /^Left running \(nothing sent, the daily snapshot once a day\): \$0\.\d+ a day, \$\d+\.\d+ a month/m,
    );
    expect(text).toMatch(/no price found .*: S3 Tables compaction \(sort\), SNS e-mail$/m);
  });

  test.each<[number | null, string]>([
    [null, 'unknown'],
    [0, '$0'],
    [1.7e-9, '<$0.000001'],
    [0.0000068, '$0.0000068'],
    [0.00066, '$0.00066'],
    [0.0497, '$0.050'],
    [0.3, '$0.30'],
    [1.512, '$1.51'],
  ])('dollars: %p → %s', (usd, text) => {
    expect(formatCostUsd(usd)).toBe(text);
  });
});
