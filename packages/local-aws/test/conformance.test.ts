// The conformance suite generated from the vendored models (test/model/conformance.ts), run against one endpoint
// over loopback: every operation of every served service, every constraint of the served operations' inputs.
import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCases, type ConformanceCase, type SkippedConstraint } from './model/conformance';
import { coverage, formatCoverage, runCases, type Outcome } from './model/conformance-run';
import { startLocalEndpoint, type LocalEndpoint } from '../src/server';
import { prepareConformance } from './support/conformance-fixtures';

describe('conformance to the AWS API models (generated, raw HTTP over loopback)', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let outcomes: Outcome[];
  let skipped: SkippedConstraint[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-conformance-'));
    endpoint = await startLocalEndpoint({ dataDir: dir });
    const fixtures = await prepareConformance(endpoint.url);
    const cases: ConformanceCase[] = [];
    skipped = [];
    for (const service of endpoint.services) {
      const generated = generateCases(service, fixtures[service.name] ?? { members: {} });
      cases.push(...generated.cases);
      skipped.push(...generated.skipped);
    }
    outcomes = await runCases(endpoint.url, cases);
  });
  afterAll(async () => {
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('every case answers as the model and AWS documentation say', () => {
    const failures = outcomes
      .filter((o) => !o.passed)
      .map((o) => `${o.case.service} ${o.case.operation} [${o.case.label}]: ${o.failure}`);
    console.log(formatCoverage(coverage(endpoint.services, outcomes, skipped)));
    if (process.env.LOGLAKE_CONFORMANCE_DETAIL) {
      for (const o of outcomes.filter((x) => x.case.label === 'valid' && x.status >= 300))
        console.log(`valid ${o.case.service} ${o.case.operation}: ${o.status} ${o.code} ${o.message}`);
      for (const s of skipped) console.log(`skipped ${s.service} ${s.operation} ${s.label}: ${s.reason}`);
    }
    expect(failures).toEqual([]);
  });

  test('every S3 Tables operation in the model is served; each served service checks constraints', () => {
    const s3tables = endpoint.services.find((s) => s.name === 'S3Tables');
    expect(s3tables?.served.length).toBe(Object.keys(s3tables?.api.model.operations ?? {}).length);
    for (const row of coverage(endpoint.services, outcomes, skipped)) {
      expect(row.served).toBeGreaterThan(0);
      expect(row.constraintsChecked).toBeGreaterThan(0);
      expect(row.notServedAnswered).toBe(row.operations - row.served);
    }
  });
});
