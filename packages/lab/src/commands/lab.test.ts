import { describe, test, expect } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlowGenerator } from '@loglake/flowgen';
import { flowRecords, sendRecords } from '../load/send-flows';
import { waitForDelivery } from '../load/wait-for-delivery';
import { openTarget } from '../target/open-target';
import { resetLocalDataDir } from './lab';

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
