import { describe, test, expect } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlowGenerator } from '@loglake/flowgen';
import { startLocalEndpoint } from '@loglake/local-aws';
import { flowRecords, sendRecords } from '../load/send-flows';
import { waitForDelivery } from '../load/wait-for-delivery';
import { openTarget } from '../target/open-target';
import { InvalidOptionError } from '../errors';
import {
  bufferIntervalFrom,
  labMain,
  LOCAL_LAB_BUFFER_INTERVAL_SECONDS,
  resetLocalDataDir,
  waitsFrom,
} from './lab';

describe('pnpm lab (the whole lab) starts from an empty local folder', () => {
  test('a folder a previous lab left, flows delivered, is emptied', async () => {
    // Prepare
    const dir = join(mkdtempSync(join(tmpdir(), 'lab-reset-')), 'local');
    const target = await openTarget({ target: 'local', dataDir: dir, bufferIntervalSeconds: 1 });
    try {
      const smoke = flowRecords(new FlowGenerator({ seed: 1 }).smoke(new Date()));
      await sendRecords(target, smoke, { label: 'smoke', progress: false });
      await waitForDelivery(target);
    } finally {
      await target.close();
    }
    // Act
    resetLocalDataDir(dir);
    // Assess
    expect(existsSync(dir)).toBe(false);
    rmSync(join(dir, '..'), { recursive: true, force: true });
  });

  test('a folder a running endpoint holds is refused, naming the holder; nothing is emptied', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-reset-held-'));
    const endpoint = await startLocalEndpoint({ dataDir: dir });
    try {
      expect(() => resetLocalDataDir(dir)).toThrow(
        new RegExp(
          `in use by the loglake local endpoint .*pid ${process.pid}, port ${endpoint.port}.*so emptying it for a new lab would share it`,
        ),
      );
      expect(existsSync(join(dir, 'warehouse'))).toBe(true);
      expect(existsSync(join(dir, 'endpoint.lock'))).toBe(true);
    } finally {
      await endpoint.stop();
    }
    // Stopped, the folder is free again and is emptied.
    resetLocalDataDir(dir);
    expect(existsSync(dir)).toBe(false);
  });

  test('a folder holding anything else is refused, naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-reset-'));
    mkdirSync(join(dir, 'warehouse'));
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    try {
      expect(() => resetLocalDataDir(dir)).toThrow(
        /holds notes\.txt, which the local endpoint did not write/,
      );
      expect(existsSync(join(dir, 'notes.txt'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
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
      /--buffer-interval, --data-dir and --no-authorization apply to --target local only/,
    );
  });
});
