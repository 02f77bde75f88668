// Every experiment asked for is a row of the report, run or not: a failure stops the run, and the rows after it are
// there, marked not run, so no count leaves them out; a partial run writes its own, marked report.
import { describe, test, expect } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTarget } from '../target/open-target';
import type { Experiment } from './context';
import { runLab } from './run-lab';

const step = (name: string, run: Experiment['run']): Experiment => ({
  name,
  title: `step ${name}`,
  part: 1,
  run,
});

describe('runLab rows', () => {
  test('a failure: its row FAILED, the rows after it not run, counted; the partial report beside the whole one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-rows-'));
    const target = await openTarget({
      target: 'local',
      dataDir: join(dir, 'local'),
      bufferIntervalSeconds: 1,
    });
    try {
      const ran: string[] = [];
      const { report, jsonPath } = await runLab({
        target,
        experiments: [
          step('undo', async () => {
            ran.push('undo');
            throw Object.assign(new Error('Could not load credentials from any providers'), {
              name: 'CredentialsProviderError',
            });
          }),
          step('snapshots', async () => {
            ran.push('snapshots');
            return { result: 'ran', measures: {}, checks: {} };
          }),
        ],
        scale: { records: 10, hours: 1, bursts: 0, burstSize: 1, seed: 1 },
        outDir: join(dir, 'out'),
        fresh: true,
        partial: true,
        log: () => undefined,
      });
      expect(ran).toEqual(['undo']);
      expect(report.experiments.map((e) => [e.name, e.error !== undefined, e.skipped])).toEqual([
        ['undo', true, undefined],
        [
          'snapshots',
          false,
          "undo failed before it, and the lab's later steps continue what the earlier ones leave",
        ],
      ]);
      // The row's error says how to give credentials.
      expect(report.experiments[0]?.error).toMatch(
        /^CredentialsProviderError: .* — No AWS credentials were found/,
      );
      expect(report.summary).toMatchObject({ rows: 2, failed: 1, skipped: 1, same: 0 });
      expect(jsonPath).toBe(join(dir, 'out', 'report-local-run.json'));
      expect(JSON.parse(readFileSync(jsonPath, 'utf8')).partial).toEqual({
        experiments: ['undo', 'snapshots'],
      });
      expect(existsSync(join(dir, 'out', 'report-local.json'))).toBe(false);
      expect(JSON.parse(readFileSync(join(dir, 'out', 'state-local.json'), 'utf8')).history).toEqual([
        'undo',
      ]);
    } finally {
      await target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
