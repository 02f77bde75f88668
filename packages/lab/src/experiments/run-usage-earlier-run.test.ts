// A second run on a data folder an earlier run used: its usage (and so its cost) is what it did, not the history the
// tables and buckets keep of the earlier run. Two real runs of the lab's runner on the local endpoint (B3).
import { describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { openTarget } from '../target/open-target';
import type { Experiment } from './context';
import { runLab } from './run-lab';

const sendSmoke: Experiment = {
  name: 'smoke',
  title: 'one smoke-test send',
  part: 1,
  async run(ctx) {
    const report = await ctx.send('smoke test', ctx.generator().smoke(new Date()));
    // One object in the error bucket, as a misfit would leave.
    await ctx.target.s3.send(
      new PutObjectCommand({
        Bucket: ctx.target.resources.errorBucketName,
        Key: `errors/${Date.now()}.json`,
        Body: '{}',
      }),
    );
    return { result: `sent ${report.accepted}`, measures: { accepted: report.accepted }, checks: {} };
  },
};

describe("a run's usage on a data folder an earlier run used", () => {
  test("counts this run's commits, records and PUTs only; the storage held includes the earlier run's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-usage-'));
    const target = await openTarget({
      target: 'local',
      dataDir: join(dir, 'local'),
      bufferIntervalSeconds: 1,
    });
    try {
      const options = {
        target,
        experiments: [sendSmoke],
        scale: { records: 10, hours: 1, bursts: 0, burstSize: 1, seed: 1 },
        outDir: join(dir, 'out'),
        partial: true,
        log: () => undefined,
      };
      const first = (await runLab({ ...options, fresh: true })).report;
      const second = (await runLab({ ...options, fresh: false })).report;
      const [u1, u2] = [first.usage, second.usage];
      if (!u1 || !u2) throw new Error(`no usage: ${first.usageError ?? second.usageError}`);

      // The second run's timeline shows both runs' commits; its usage counts those since its start.
      const since = Date.parse(second.startedAt);
      const ownCommits = second.timeline.filter((e) => Date.parse(e.committedAt) >= since);
      expect(ownCommits.length).toBeGreaterThan(0);
      expect(second.timeline.length).toBeGreaterThan(ownCommits.length);
      expect(u2.tables.commits).toBe(ownCommits.filter((e) => e.operation !== 'replace').length);
      expect(u2.tables.commits).toBe(u1.tables.commits);
      expect(u2.tables.objectsWritten).toBe(u1.tables.objectsWritten);
      expect(u2.firehose).toEqual(u1.firehose);
      // The error bucket holds both runs' objects; this run wrote one of them.
      expect(u2.buckets.find((b) => b.role === 'error output')).toMatchObject({ objects: 2, written: 1 });
      // What is stored while it runs is everything kept, the earlier run's data too.
      expect(u2.tables.bytes).toBeGreaterThan(u1.tables.bytes);
      // And so the PUT lines of the two runs' estimates are the same.
      const put = (r: typeof first) => r.cost?.run.find((l) => l.id === 's3tables-put')?.usd;
      expect(put(second)).toBe(put(first));
    } finally {
      await target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
