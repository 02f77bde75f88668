import { describe, test, expect } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlowGenerator } from '@loglake/flowgen';
import { flowRecords, sendRecords } from '../load/send-flows';
import { waitForDelivery } from '../load/wait-for-delivery';
import { openTarget } from '../target/open-target';
import { InvalidOptionError } from '../errors';
import { labMain, resetLocalDataDir, waitsFrom } from './lab';

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
    expect(waitsFrom({ target: 'aws' })).toEqual({ compactionMs: 600_000 });
    expect(waitsFrom({ target: 'aws', compactionWait: '3' })).toEqual({ compactionMs: 180_000 });
    expect(waitsFrom({ target: 'aws', compactionWait: '0' })).toEqual({ compactionMs: 0 });
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
