// The conformance corpus through the local Athena API: the AWS SDK's Athena client over loopback against the
// real endpoint, engine and SQL front end. Every case must give its documented result (or, for a listed gap,
// its clear NOT_SUPPORTED error); at least 95% of them must pass, and every gap must be listed in the SQL front
// end's README with its reason.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalEndpoint, type LocalEndpoint } from '../../../src/server';
import { CORPUS } from './cases';
import { runCorpus, type CorpusReport } from './run-corpus';

const README = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../lakehouse/src/sql/README.md');

describe('conformance corpus through the local Athena API', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let report: CorpusReport;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'corpus-'));
    endpoint = await startLocalEndpoint({ dataDir: dir });
    report = await runCorpus(endpoint.url);
  });
  afterAll(async () => {
    await endpoint?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test.each(CORPUS.map((c) => [c.id, c] as const))('%s', (id) => {
    const result = report.results.find((r) => r.case.id === id);
    expect(
      result?.verdict.kind === 'fail' ? `${result.verdict.detail}\n${result.case.sql}` : 'as documented',
    ).toBe('as documented');
  });

  test('at least 150 cited cases, at least 95% passing', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(150);
    expect(new Set(CORPUS.map((c) => c.id)).size).toBe(CORPUS.length);
    for (const c of CORPUS) expect(c.source).toMatch(/^https:\/\/(trino\.io|docs\.aws\.amazon\.com)\//);
    expect(report.passRate).toBeGreaterThanOrEqual(0.95);
  });

  test('every gap is listed in lakehouse/src/sql/README.md', () => {
    const readme = readFileSync(README, 'utf8');
    const unlisted = CORPUS.filter((c) => c.gap && !readme.includes(`\`${c.id}\``)).map((c) => c.id);
    expect(unlisted).toEqual([]);
  });

  test('every expectation of our own (no page gives it) is named in lakehouse/src/sql/README.md', () => {
    const readme = readFileSync(README, 'utf8');
    const unlisted = CORPUS.filter((c) => c.ours && !readme.includes(`\`${c.id}\``)).map((c) => c.id);
    expect(unlisted).toEqual([]);
  });
});
