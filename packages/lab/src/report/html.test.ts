// The HTML report as a reader's browser shows it (Debian's Chromium, headless): it fits the window, the verdict at
// the top counts what the JSON holds, every picture has a mark for each of its series (or says why not), the
// timeline has its axis and labels, each query's SQL is one click away, and nothing is fetched or run.
import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { estimateCost } from '../cost/estimate';
import { sampleReport, sampleUsage } from '../../test/support/report-fixture';
import { renderHtml } from './html';
import type { LabReport } from './lab-report';
import { runVerdict, VERDICT_ORDER } from './run-verdict';

const CHROMIUM = '/usr/bin/chromium';

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

// No DOM lib in this tsconfig: the little of the DOM the page functions use.
interface El {
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelectorAll(s: string): ArrayLike<El>;
  scrollWidth: number;
  clientWidth: number;
}
declare const document: { documentElement: El; querySelectorAll(s: string): ArrayLike<El> };
declare const window: { innerWidth: number; getComputedStyle(e: El): { display: string } };

let pages = 0;
async function open(
  html: string,
  width: number,
): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  if (!browser) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
  const file = join(dir, `report-${pages++}.html`);
  writeFileSync(file, html);
  const page = await browser.newPage();
  await page.setViewportSize({ width, height: 900 });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(file).href);
  return { page, requests, errors };
}

/** How far the page reaches past the window's right edge (0 when it fits). */
const overflowX = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('HTML report', () => {
  test('is self-contained: nothing fetched, no script that runs, links only inside the page or to AWS pricing', () => {
    const html = renderHtml(sampleReport());
    expect(html).not.toMatch(/<(link|img|iframe)\b|src=/i);
    expect(html).not.toMatch(/<script(?![^>]*type="application\/json")/);
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1] as string);
    expect(
      hrefs.filter(
        (h) => !h.startsWith('#') && !/^https:\/\/aws\.amazon\.com\/[a-z0-9-]+\/pricing\/$/.test(h),
      ),
    ).toEqual([]);
    expect(html).toContain('&lt;http://127.0.0.1:1&gt; &amp; friends');
    expect(html).toContain(
      '<ul class="details"><li><b>DELETE</b>: refused: Required Delete on &lt;t&gt;</li></ul>',
    );
    // Every in-page link lands on something.
    const ids = new Set([...html.matchAll(/id="([^"]*)"/g)].map((m) => m[1]));
    expect(hrefs.filter((h) => h.startsWith('#') && !ids.has(h.slice(1)))).toEqual([]);
  });

  test.each([1280, 1920])(
    'at %i px the page is no wider than the window, and nothing is cut off',
    async (width) => {
      const { page, requests, errors } = await open(renderHtml(sampleReport()), width);
      expect(await overflowX(page)).toBeLessThanOrEqual(0);
      // No element is wider than the page either (a hidden overflow would cut it off).
      const wide = await page.evaluate(() =>
        Array.from(document.querySelectorAll('table, svg, pre, article'))
          .filter((e) => e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0)
          .map((e) => e.getAttribute('class')),
      );
      expect(wide).toEqual([]);
      expect(errors).toEqual([]);
      expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
      await page.close();
    },
  );

  test('the width check fails for a page that is wider than the window', async () => {
    const { page } = await open('<!doctype html><body><div style="width:2000px">too wide</div></body>', 1280);
    expect(await overflowX(page)).toBeGreaterThan(0);
    await page.close();
  });

  test('on a narrow screen the experiment and cost tables stack, and the page still fits', async () => {
    const { page } = await open(renderHtml(sampleReport()), 480);
    expect(await overflowX(page)).toBeLessThanOrEqual(0);
    const displays = await page.evaluate(() =>
      Array.from(document.querySelectorAll('table.figures td, table.cost td')).map(
        (td) => window.getComputedStyle(td).display,
      ),
    );
    expect(displays.length).toBeGreaterThan(0);
    expect(new Set(displays)).toEqual(new Set(['block']));
    await page.close();
  });

  test('the verdict at the top counts what the JSON holds, each count linking to its rows', async () => {
    const report = sampleReport();
    const { page } = await open(renderHtml(report), 1280);
    const data = JSON.parse((await page.$eval('#report-data', (s) => s.textContent)) ?? '{}') as LabReport;
    const expected = runVerdict(data);
    // One of each verdict in the sample, so each count is checked against something.
    expect(expected.counts).toEqual({
      same: 1,
      differs: 3,
      'no-figure': 1,
      failed: 1,
      skipped: 1,
      'checks-failed': 1,
    });
    const line = await page.$eval('.verdict-line', (p) => p.textContent ?? '');
    expect(line).toBe(
      '7 experiments: 1 same · 3 differ · 1 no figure · 1 failed · 1 not run · 1 check failed',
    );
    const shown = await page.$$eval('.verdict-line .count', (els) => els.map((e) => e.textContent ?? ''));
    expect(shown.map((t) => Number(t.split(' ')[0]))).toEqual(VERDICT_ORDER.map((k) => expected.counts[k]));
    // The rows behind each count, linked.
    const listed = await page.$$eval('.verdict-rows li', (lis) =>
      lis.map((li) => [
        li.getAttribute('id'),
        Array.from((li as unknown as El).querySelectorAll('a')).map((a) => a.getAttribute('href')),
      ]),
    );
    expect(listed).toEqual([
      ['v-same', ['#row-time-travel']],
      ['v-differs', ['#row-load', '#row-compaction', '#row-one-hour']],
      ['v-no-figure', ['#row-undo-window']],
      ['v-failed', ['#row-sort-order']],
      ['v-skipped', ['#row-daily-snapshot']],
      ['v-checks-failed', ['#row-compaction']],
    ]);
    // The failed check is visible in its row, not in a column that can be cut off.
    expect(await page.$eval('#row-compaction .check.bad', (s) => s.textContent)).toBe('✗ someCheck');
    await page.close();
  });

  test('every picture has a mark for each of its series, or says why it has none', async () => {
    const report = sampleReport();
    const { page } = await open(renderHtml(report), 1280);
    for (const chart of report.charts) {
      const figure = `#chart-${chart.id}`;
      if (chart.missing) {
        expect([chart.id, await page.$eval(`${figure} .missing`, (p) => p.textContent)]).toEqual([
          chart.id,
          `No picture: ${chart.missing}.`,
        ]);
        expect(await page.$$eval(`${figure} rect.bar`, (r) => r.length)).toBe(0);
        continue;
      }
      const marks = await page.$$eval(`${figure} svg rect.bar`, (bars) =>
        bars.map((b) => [b.getAttribute('data-series'), Number(b.getAttribute('width'))] as const),
      );
      expect([chart.id, marks.length]).toEqual([chart.id, chart.groups.flatMap((g) => g.bars).length]);
      expect([chart.id, new Set(marks.map(([s]) => s))]).toEqual([chart.id, new Set(chart.series)]);
    }
    // The two pictures the sample cannot draw: a failed experiment and one that did not run.
    expect(report.charts.filter((c) => c.missing).map((c) => c.id)).toEqual(['sort-order', 'daily-snapshot']);
    // Bars are to scale: the one-hour question's unpartitioned side reads 16.1× what the partitioned one does.
    const widths = await page.$$eval('#chart-one-hour rect.bar', (b) =>
      b.map((r) => Number(r.getAttribute('width'))),
    );
    expect((widths[0] as number) / (widths[1] as number)).toBeCloseTo(359_997 / 22_360, 1);
    await page.close();
  });

  test('the snapshot timeline: a dot per commit (expired ones hollow), a time axis, the experiments labelled', async () => {
    const report = sampleReport();
    const { page } = await open(renderHtml(report), 1280);
    expect(await page.$$eval('svg.timeline circle.snap', (c) => c.length)).toBe(report.timeline.length);
    expect(await page.$$eval('svg.timeline circle.snap.expired', (c) => c.length)).toBe(1);
    const ticks = await page.$$eval('svg.timeline text.tick', (t) => t.map((x) => x.textContent ?? ''));
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    for (const t of ticks) expect(t).toMatch(/^\d\d:\d\d:\d\d$/);
    const labels = await page.$$eval('svg.timeline text.exp', (t) => t.map((x) => x.textContent));
    expect(labels).toEqual(['load', 'compaction', 'one-hour']);
    await page.close();
  });

  test('bytes read per query, grouped by experiment, each with its SQL one click away', async () => {
    const report = sampleReport();
    const { page } = await open(renderHtml(report), 1280);
    const groups = await page.$$eval('section.qgroup', (s) =>
      s.map((g) => [
        g.getAttribute('id'),
        g.querySelectorAll('details.sql').length,
        g.querySelectorAll('rect.bar').length,
      ]),
    );
    expect(groups).toEqual([
      ['q-time-travel', 1, 1],
      ['q-one-hour', 2, 2],
    ]);
    const summary = await page.$eval('#q-one-hour details.sql summary', (s) => s.textContent ?? '');
    expect(summary).toBe('network/one_hour352 KiB40 ms');
    // The SQL is in the page, escaped, behind a click (closed details).
    expect(await page.$eval('#q-time-travel pre code', (c) => c.textContent)).toBe(
      'SELECT count(*) FROM network.vpc_flow_logs FOR VERSION AS OF 1 -- <rows>',
    );
    expect(await page.$$eval('details.sql[open]', (d) => d.length)).toBe(0);
    await page.close();
  });

  test('what it would cost on AWS: the totals at the top, a line per service, the dated price table', async () => {
    const report = sampleReport();
    const { page } = await open(renderHtml(report), 1280);
    const top = await page.$eval('.cost-summary', (p) => p.textContent ?? '');
    expect(top).toMatch(
      /^On AWS this run would cost about \$0\.\d+ \(excluding S3 Tables compaction \(sort\), SNS e-mail: unknown\) \(us-east-1, list prices read on 2026-12-01, no free tier\)/,
    );
    const services = await page.$$eval('#cost ~ table.cost:first-of-type tbody tr td:first-child', (t) =>
      t.map((x) => x.textContent),
    );
    expect(services).toEqual(report.cost?.run.map((l) => l.service));
    const prices = await page.$$eval('table.prices tbody tr', (rows) =>
      rows.map((r) => r.querySelectorAll('a')[0]?.getAttribute('href')),
    );
    expect(prices.length).toBe(report.cost?.prices.length);
    for (const href of prices) expect(href).toMatch(/^https:\/\/aws\.amazon\.com\//);
    expect(await page.$$eval('table.prices tr.unpriced', (r) => r.length)).toBeGreaterThan(0);
    await page.close();
  });

  test('an unknown cost line says "not measured" or "not estimated", never $0, and each total says what it leaves out (F1/F2)', () => {
    const report = sampleReport();
    const usage = {
      ...sampleUsage(),
      customMetrics: { count: null, metricHours: null, dailyMetricHours: null, source: 'not seen' },
    };
    const html = renderHtml({ ...report, usage, cost: estimateCost(usage) });
    const cells = (label: string) =>
      [
        ...html.matchAll(
          new RegExp(
            `<td data-label="Service">([^<]*)</td>(?:(?!</tr>).)*<td data-label="${label}" class="num">([^<]*)</td>`,
            'g',
          ),
        ),
      ].map((m) => [m[1], m[2]]);
    expect(cells('Cost')).toContainEqual(['CloudWatch custom metrics', 'not measured']);
    expect(cells('Cost')).toContainEqual(['SNS e-mail', 'not estimated']);
    expect(cells('A day')).toContainEqual(['CloudWatch custom metrics', 'not measured']);
    expect(html).toMatch(
      /<h3>This run: \$0\.\d+ \(excluding S3 Tables compaction \(sort\), CloudWatch custom metrics, SNS e-mail: unknown\)<\/h3>/,
    );
    expect(html).toMatch(
      /<h3>Left running with the daily snapshot: \$0\.\d+ \(excluding CloudWatch custom metrics: unknown\) a day, /,
    );
  });

  test('a partial report says it is partial, at the top', async () => {
    const report = { ...sampleReport(), partial: { experiments: ['load', 'time-travel'] } };
    const { page } = await open(renderHtml(report), 1280);
    expect(await page.$eval('#partial', (p) => p.textContent ?? '')).toMatch(
      /^A partial report\. Only load, time-travel ran \(pnpm lab run load time-travel\)/,
    );
    expect(await page.$eval('.verdict-line b', (b) => b.textContent)).toBe('Partial run, 7 experiments:');
    const full = await open(renderHtml(sampleReport()), 1280);
    expect(await full.page.$$eval('#partial', (p) => p.length)).toBe(0);
    await page.close();
    await full.page.close();
  });

  test('a report written before the estimate was kept still renders, saying there is none', async () => {
    const { usage: _u, cost: _c, ...old } = sampleReport();
    const { page, errors } = await open(renderHtml(old), 1280);
    expect(await page.$eval('#cost + p.missing', (p) => p.textContent)).toBe(
      'No estimate for this run (the report predates it).',
    );
    expect(errors).toEqual([]);
    await page.close();
  });
});
