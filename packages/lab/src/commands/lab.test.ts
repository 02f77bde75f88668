import { describe, test, expect } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startLocalEndpoint } from '@loglake/local-aws';
import { InvalidOptionError } from '../errors';
import { LAKE_MANIFEST, readManifest } from '../target/local-lake';
import { bufferIntervalFrom, labMain, LOCAL_LAB_BUFFER_INTERVAL_SECONDS, waitsFrom } from './lab-main';
import { beginLakeRun, continueLake, finishLake, resetLake, startWholeLabLake } from './lake-policy';

const FLOW_FILE =
  'warehouse/warehouse/loglake-01-flow-logs/network/vpc_flow_logs-0a1b2c3d/data/part-0.parquet';
const put = (dir: string, rel: string, text = 'parquet bytes') => {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
};
const scratch = () => mkdtempSync(join(tmpdir(), 'lab-lake-'));

/** A lake the lab wrote: its manifest lists the flow table's file. */
function labLake(dir: string): void {
  const lake = startWholeLabLake(dir, { say: () => undefined });
  beginLakeRun(lake);
  put(dir, FLOW_FILE);
  finishLake(lake);
}

describe("the whole lab empties a lake only when it is the lab's, and says so first", () => {
  test("the lab's own lake is emptied, saying so, and a new lake id starts", () => {
    const dir = join(scratch(), 'local');
    try {
      labLake(dir);
      const before = readManifest(dir)?.lakeId;
      const said: string[] = [];
      startWholeLabLake(dir, { say: (l) => said.push(l) });
      expect(said.join('\n')).toMatch(
        /emptying .*local first \(1 file, 13 B: 1 data file, 13 B, and 0 service-state files, 0 B; all written by the last lab\)/,
      );
      expect(existsSync(join(dir, FLOW_FILE))).toBe(false);
      expect(readManifest(dir)?.lakeId).not.toBe(before);
    } finally {
      rmSync(dirname(dir), { recursive: true, force: true });
    }
  });

  test('a folder a running endpoint holds is refused, naming the holder; nothing is emptied', async () => {
    const dir = join(scratch(), 'local');
    labLake(dir);
    const endpoint = await startLocalEndpoint({ dataDir: dir });
    try {
      for (const attempt of [
        () => startWholeLabLake(dir, { say: () => undefined }),
        () => resetLake(dir, [], { say: () => undefined }),
        () => resetLake(dir, [], { dryRun: true, say: () => undefined }),
      ])
        expect(attempt).toThrow(
          new RegExp(
            `in use by the loglake local endpoint .*pid ${process.pid}, port ${endpoint.port}.*--data-dir`,
          ),
        );
      expect(existsSync(join(dir, FLOW_FILE))).toBe(true);
      expect(existsSync(join(dir, 'endpoint.lock'))).toBe(true);
    } finally {
      await endpoint.stop();
    }
    // Stopped, the folder is free again and is emptied.
    startWholeLabLake(dir, { say: () => undefined });
    expect(existsSync(join(dir, FLOW_FILE))).toBe(false);
    rmSync(dirname(dir), { recursive: true, force: true });
  });

  test('data the lab did not write (a load since, or a folder no lab wrote) is refused, naming the flag; nothing is removed', () => {
    const dir = join(scratch(), 'local');
    try {
      labLake(dir);
      const loaded = FLOW_FILE.replace('part-0', 'part-loaded');
      put(dir, loaded);
      expect(() => startWholeLabLake(dir, { say: () => undefined })).toThrow(
        /holds files the lab did not write: data: network\.vpc_flow_logs \(1 file, 13 B\).*--discard-data/s,
      );
      expect(existsSync(join(dir, loaded))).toBe(true);
      rmSync(join(dir, LAKE_MANIFEST));
      expect(() => startWholeLabLake(dir, { say: () => undefined })).toThrow(
        /no lab ever ran on it.*--discard-data/s,
      );
      expect(existsSync(join(dir, FLOW_FILE))).toBe(true);
      // Told to, it empties the lake and says what went with it.
      const said: string[] = [];
      startWholeLabLake(dir, { discardData: true, say: (l) => said.push(l) });
      expect(said.join('\n')).toMatch(
        /including files the lab did not write, as --discard-data asks: data: network\.vpc_flow_logs \(2 files/,
      );
      expect(existsSync(join(dir, loaded))).toBe(false);
    } finally {
      rmSync(dirname(dir), { recursive: true, force: true });
    }
  });

  test('a folder holding anything else is refused, naming it, whatever the flags', () => {
    const dir = scratch();
    mkdirSync(join(dir, 'warehouse'));
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    try {
      expect(() => startWholeLabLake(dir, { discardData: true, say: () => undefined })).toThrow(
        /holds notes\.txt, which the local endpoint did not write/,
      );
      expect(existsSync(join(dir, 'notes.txt'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('pnpm lab run continues only the lake its state was written for', () => {
  test('state of an earlier lake, or of a lake that is gone, is refused naming the file and the fix', () => {
    const dir = join(scratch(), 'local');
    const statePath = join(dirname(dir), 'state-local.json');
    try {
      labLake(dir);
      expect(() => continueLake(dir, { lakeId: 'an-earlier-lake', history: ['load'] }, statePath)).toThrow(
        /state-local\.json belongs to an earlier lake \(an-earlier-lake\).*Run the whole lab/,
      );
      const lakeId = readManifest(dir)?.lakeId;
      expect(continueLake(dir, { lakeId, history: ['load'] }, statePath).manifest.lakeId).toBe(lakeId);
      rmSync(dir, { recursive: true, force: true });
      expect(() => continueLake(dir, { lakeId, history: ['load'] }, statePath)).toThrow(
        /belongs to an earlier lake: .* is empty now/,
      );
    } finally {
      rmSync(dirname(dir), { recursive: true, force: true });
    }
  });
});

describe('pnpm lab reset', () => {
  test('says what it removes (the lake, its state), removes both, and keeps the rest of .lab', () => {
    const out = scratch();
    const dir = join(out, 'local');
    const state = join(out, 'state-local.json');
    try {
      labLake(dir);
      put(dir, 's3/loglake-01-firehose-errors-123456789012/errors/x', 'bad');
      writeFileSync(state, '{}');
      writeFileSync(join(out, 'report-local.json'), '{}');
      const dry: string[] = [];
      expect(() => resetLake(dir, [state], { dryRun: true, say: (l) => dry.push(l) })).toThrow(
        /holds files the lab did not write: data: s3:\/\/loglake-01-firehose-errors-123456789012 \(1 file, 3 B\).*would remove nothing.*--discard-data/s,
      );
      expect(dry).toEqual([
        expect.stringMatching(/^Files in .* the lab did not write \(only --discard-data removes them\):$/),
        '  s3/loglake-01-firehose-errors-123456789012/errors/x (3 B)',
      ]);
      expect(() => resetLake(dir, [state], { say: () => undefined })).toThrow(/removed nothing/);
      expect([existsSync(join(dir, FLOW_FILE)), existsSync(state)]).toEqual([true, true]);
      const said: string[] = [];
      resetLake(dir, [state], { discardData: true, say: (l) => said.push(l) });
      expect(said.join('\n')).toMatch(/Removing the local lake .*\nRemoving .*state-local\.json/);
      expect(said.join('\n')).toMatch(/Done: removed 2 files \(16 B\) from /);
      expect([existsSync(dir), existsSync(state), existsSync(join(out, 'report-local.json'))]).toEqual([
        false,
        false,
        true,
      ]);
      expect(readFileSync(join(out, 'report-local.json'), 'utf8')).toBe('{}');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('--compaction-wait (aws only, minutes)', () => {
  test('defaults to 10 minutes; 0 reads the job status once; anything else is refused, naming it', () => {
    expect(waitsFrom({ target: 'aws' })).toEqual({ compactionMs: 600_000, alarmMs: 600_000 });
    expect(waitsFrom({ target: 'aws', compactionWait: '3', alarmWait: '4' })).toEqual({
      compactionMs: 180_000,
      alarmMs: 240_000,
    });
    expect(waitsFrom({ target: 'aws', compactionWait: '0' })).toEqual({ compactionMs: 0, alarmMs: 600_000 });
    expect(() => waitsFrom({ target: 'aws', compactionWait: 'soon' })).toThrow(
      /--compaction-wait soon is not an integer ≥ 0/,
    );
  });

  test('is refused on --target local, before anything runs', async () => {
    const run = labMain(['compaction'], {
      target: 'local',
      compactionWait: '5',
      dataDir: '/nonexistent/lab',
    });
    await expect(run).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(run).rejects.toThrow(/--compaction-wait 5 applies to --target aws only/);
  });
});

describe('--buffer-interval (local only)', () => {
  test("defaults to the lab's short interval, says why; 'unit' waits the unit's interval; a bad value is refused", () => {
    expect(bufferIntervalFrom(undefined)).toMatchObject({ seconds: LOCAL_LAB_BUFFER_INTERVAL_SECONDS });
    expect(bufferIntervalFrom(undefined).reason).toMatch(/--buffer-interval unit waits the unit's interval/);
    expect(bufferIntervalFrom('unit')).toEqual({});
    expect(bufferIntervalFrom('0')).toEqual({ seconds: 0 });
    expect(bufferIntervalFrom('60')).toEqual({ seconds: 60 });
    for (const bad of ['901', '-1', 'soon', '1.5'])
      expect(() => bufferIntervalFrom(bad)).toThrow(`--buffer-interval ${bad} is not 0–900 seconds`);
  });

  test('is refused on --target aws, before anything runs', async () => {
    await expect(labMain(['load'], { target: 'aws', bufferInterval: 'unit' })).rejects.toThrow(
      /--buffer-interval, --data-dir, --no-authorization and --discard-data apply to --target local only/,
    );
  });
});
