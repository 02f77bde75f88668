// `pnpm bench api`: the API coverage of the local endpoint, measured by the conformance suite generated from the
// vendored models (test/model/conformance.ts) run against one endpoint: per service, operations served / in the
// model, valid requests (and how many succeeded), constraints refused as AWS does, constraints the generator could
// not express (and why), unserved operations answering UnsupportedOperationException. Not a timing: the same
// suite runs in CI (test/conformance.test.ts); this prints it as a report, `.lab/bench/api.json` beside it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCases, type ConformanceCase, type SkippedConstraint } from '../test/model/conformance';
import { coverage, formatCoverage, runCases } from '../test/model/conformance-run';
import { startLocalEndpoint } from '../src/server';
import { prepareConformance } from '../test/support/conformance-fixtures';

const dir = mkdtempSync(join(tmpdir(), 'bench-api-'));
const endpoint = await startLocalEndpoint({ dataDir: dir });
try {
  const fixtures = await prepareConformance(endpoint.url);
  const cases: ConformanceCase[] = [];
  const skipped: SkippedConstraint[] = [];
  for (const service of endpoint.services) {
    const generated = generateCases(service, fixtures[service.name] ?? { members: {} });
    cases.push(...generated.cases);
    skipped.push(...generated.skipped);
  }
  const started = Date.now();
  const outcomes = await runCases(endpoint.url, cases);
  const rows = coverage(endpoint.services, outcomes, skipped);
  console.log(formatCoverage(rows));
  console.log(`\n${cases.length} requests in ${Date.now() - started} ms (one endpoint, 16 in flight).`);
  const reasons = new Map<string, number>();
  for (const s of skipped)
    reasons.set(`${s.service}: ${s.reason}`, (reasons.get(`${s.service}: ${s.reason}`) ?? 0) + 1);
  console.log('\nNot checkable, by reason:');
  for (const [reason, count] of reasons) console.log(`  ${count} × ${reason}`);
  const failed = outcomes.filter((o) => !o.passed);
  for (const o of failed)
    console.log(`FAILED ${o.case.service} ${o.case.operation} [${o.case.label}]: ${o.failure}`);
  const out = join(process.cwd(), '.lab', 'bench');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'api.json'),
    `${JSON.stringify({ rows, skipped, failed: failed.map((o) => ({ ...o.case, failure: o.failure })) }, null, 2)}\n`,
  );
  process.exitCode = failed.length > 0 ? 1 : 0;
} finally {
  await endpoint.stop();
  rmSync(dir, { recursive: true, force: true });
}
