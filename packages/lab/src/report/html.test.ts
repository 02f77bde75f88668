import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { judge } from '../article';
import { renderHtml } from './html';
import type { LabReport } from './lab-report';

const CHROMIUM = '/usr/bin/chromium';
const ENV = { target: 'local' as const, records: 50_000 };

function sampleReport(): LabReport {
  return {
    startedAt: '2026-11-29T10:00:00.000Z',
    finishedAt: '2026-11-29T10:03:00.000Z',
    target: 'local',
    banner: ['target local: in-process endpoint <http://127.0.0.1:1> & friends'],
    scale: { records: 50000, hours: 24, bursts: 10, burstSize: 200, seed: 1 },
    experiments: [
      {
        name: 'time-travel',
        title: 'Time travel to the smoke test',
        part: 1,
        article: '10 rows back, 0 bytes scanned (answered from metadata)',
        result: '10 rows back, 0 bytes scanned',
        measures: { rows: 10, bytesScanned: 0 },
        comparisons: judge('time-travel', { rows: 10, bytesScanned: 0 }, ENV).comparisons,
        checks: {},
        durationMs: 10,
      },
      {
        name: 'compaction',
        title: 'Wait for compaction',
        part: 1,
        article: 'Two runs reported Successful. Neither rewrote a file',
        result: '2 runs reported Successful; $snapshots shows 1 rewrite',
        measures: {},
        comparisons: judge('compaction', { jobStatus: 'Successful', runs: 2, replaceSnapshots: 1 }, ENV)
          .comparisons,
        checks: { someCheck: false },
        durationMs: 10,
      },
      {
        name: 'analyst-role',
        title: 'A read-only analyst role',
        part: 2,
        article: 'still to come in Part 2: a read-only analyst role (no figure)',
        result: '1 of 1 writes refused',
        measures: {},
        comparisons: [],
        checks: { everyWriteRefused: true },
        details: [{ label: 'DELETE', text: 'refused: Required Delete on <t>' }],
        durationMs: 10,
      },
      {
        name: 'one-hour',
        title: 'The one-hour question',
        part: 2,
        article: 'same answer, 5.5× less read',
        result: '',
        measures: {},
        comparisons: [],
        checks: {},
        durationMs: 1,
        error: 'boom <b>',
      },
    ],
    timeline: [
      {
        table: 'network.vpc_flow_logs',
        committedAt: '2026-11-29T10:00:01.000Z',
        snapshotId: '1',
        operation: 'append',
        addedRecords: 10,
      },
      {
        table: 'network.vpc_flow_logs',
        committedAt: '2026-11-29T10:01:00.000Z',
        snapshotId: '2',
        operation: 'delete',
        addedRecords: 0,
      },
      {
        table: 'ref.host_inventory',
        committedAt: '2026-11-29T10:02:00.000Z',
        snapshotId: '3',
        operation: 'overwrite',
        addedRecords: 2,
      },
    ],
    charts: [
      {
        title: 'The one-hour question',
        bars: [
          { label: 'unpartitioned', bytes: 1_100_000 },
          { label: 'partitioned', bytes: 200_000 },
        ],
      },
    ],
    queries: [
      { experiment: 'time-travel', query: 'network/time_travel_smoke', dataScannedInBytes: 0, ms: 5 },
    ],
    wallMs: 180_000,
  };
}

const haveChromium = existsSync(CHROMIUM);
let browser: BrowserContext | undefined;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lab-html-'));
  if (!haveChromium) return;
  // A new, empty profile each run (playwright takes it as the persistent context's userDataDir).
  browser = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('HTML report', () => {
  test('is self-contained: no external resource, no script that runs', () => {
    const html = renderHtml(sampleReport());
    expect(html).not.toMatch(/<(link|img|iframe)\b|src=|href=/i);
    expect(html).not.toMatch(/<script(?![^>]*type="application\/json")/);
    expect(html).toContain('&lt;http://127.0.0.1:1&gt; &amp; friends');
    // An experiment's itemized outcomes, under its result, escaped.
    expect(html).toContain(
      '<ul class="details"><li><b>DELETE</b>: refused: Required Delete on &lt;t&gt;</li></ul>',
    );
  });

  test('renders in headless Chromium: table, timeline and bars, with text escaped', async () => {
    // Prepare
    if (!browser) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
    const file = join(dir, 'report.html');
    writeFileSync(file, renderHtml(sampleReport()));
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    // Act
    await page.goto(pathToFileURL(file).href);
    // Assess
    expect(await page.title()).toBe('loglake lab report');
    const cells = await page.$$eval('#experiments > tbody > tr', (rows) =>
      // No DOM lib in this tsconfig: describe the little of the DOM the page function uses.
      (rows as unknown as { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> }[]).map(
        (r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent ?? ''),
      ),
    );
    expect(cells.map((c) => c[0])).toEqual([
      'Time travel to the smoke test',
      'Wait for compaction',
      'A read-only analyst role',
      'The one-hour question',
    ]);
    expect(cells[2]?.[2]).toBe('1 of 1 writes refusedDELETE: refused: Required Delete on <t>');
    expect(cells[3]?.[2]).toBe('FAILED: boom <b>');
    // The article's words and this run's side by side, with the row's verdict.
    expect(cells[0]?.[1]).toBe('10 rows back, 0 bytes scanned (answered from metadata)');
    expect(cells[0]?.[2]).toContain('0 bytes scanned');
    expect(cells.map((c) => c[3])).toEqual([
      "same · lab's choice",
      "differs (1 of 3) · lab's choice · check failed: someCheck",
      'no figure',
      'FAILED',
    ]);
    expect(await page.$$eval('#experiments > tbody > tr.differs', (rows) => rows.length)).toBe(1);
    // Each figure: the article's, ours, the rule, the verdict and why.
    const figures = await page.$$eval('tr.figure.differs', (rows) =>
      (rows as unknown as { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> }[]).map(
        (r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent ?? ''),
      ),
    );
    expect(figures).toHaveLength(1);
    expect(figures[0]?.slice(0, 4)).toEqual(['rewrites ($snapshots replace)', '0', '1', 'equal']);
    expect(figures[0]?.[4]).toMatch(/^differsWhy: the local engine compacts/);
    expect(await page.$$eval('svg.timeline circle.snap', (c) => c.length)).toBe(3);
    const widths = await page.$$eval('svg.bars rect.bar', (bars) =>
      bars.map((b) => Number(b.getAttribute('width'))),
    );
    expect(widths).toHaveLength(2);
    expect((widths[0] as number) / (widths[1] as number)).toBeCloseTo(5.5, 1);
    const box = await page.$eval('svg.timeline', (svg) => svg.getBoundingClientRect().width);
    expect(box).toBeGreaterThan(100);
    const data = JSON.parse((await page.$eval('#report-data', (s) => s.textContent)) ?? '{}') as LabReport;
    expect(data.experiments).toHaveLength(4);
    expect(errors).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    await page.close();
  });
});
