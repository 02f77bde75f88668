// Emptying and resetting a local lake as a careless user meets it, each command a child process: files the lab did
// not write — one put there by hand, an object and a multipart upload sent to `pnpm lab local` with the AWS SDK (what
// `aws s3 cp` does) — are counted, listed by a dry run, and never removed without --discard-data; what is removed is
// exactly what was counted. A second command on a lake a lab is writing, a data folder or --out-dir that is a file,
// are refused before anything is touched.
import { describe, test, expect } from '@jest/globals';
import {
  CreateMultipartUploadCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filesIn, run, STACK_LINE, start } from '../../test/support/cli';

const LAKE_MANIFEST = 'loglake-lab.json';
/** What the user has in the lake (the lab's manifest aside). */
const lakeFiles = (dir: string) => filesIn(dir, [LAKE_MANIFEST]);

const ERRORS_BUCKET = 'loglake-01-firehose-errors-123456789012';

/** Sends an object and starts a multipart upload with one part through `pnpm lab local`, as `aws s3 cp` would. */
async function uploadThroughLocal(lake: string): Promise<void> {
  const local = start('lab', ['local', '--port', '0', '--data-dir', lake]);
  await local.waitFor(/ready on http:\/\/127\.0\.0\.1:\d+/);
  const port = /ready on http:\/\/127\.0\.0\.1:(\d+)/.exec(local.output().stdout)?.[1];
  const s3 = new S3Client({
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'local' },
  });
  try {
    await s3.send(new PutObjectCommand({ Bucket: ERRORS_BUCKET, Key: 'mine/notes.txt', Body: 'my notes' }));
    const upload = await s3.send(new CreateMultipartUploadCommand({ Bucket: ERRORS_BUCKET, Key: 'big.bin' }));
    await s3.send(
      new UploadPartCommand({
        Bucket: ERRORS_BUCKET,
        Key: 'big.bin',
        UploadId: upload.UploadId,
        PartNumber: 1,
        Body: Buffer.alloc(2048, 7),
      }),
    );
  } finally {
    s3.destroy();
    local.child.kill('SIGINT');
    await local.done;
  }
}

describe('files the lab did not write are never removed by accident', () => {
  test('a hand-put file, an S3 object and a multipart upload: counted, listed by --dry-run, kept without --discard-data; with it, exactly what was counted goes', async () => {
    const out = mkdtempSync(join(tmpdir(), 'lake-cli-'));
    const lake = join(out, 'local');
    const where = ['--data-dir', lake, '--out-dir', out];
    try {
      // A lake the lab wrote (the only row fails at once, after provisioning), then three writes of the user's.
      expect((await run('lab', ['run', 'time-travel', ...where])).status).not.toBe(0);
      await uploadThroughLocal(lake);
      writeFileSync(join(lake, 'state', 'notes.txt'), 'mine');
      const before = lakeFiles(lake);

      const dry = await run('lab', ['reset', '--dry-run', ...where]);
      expect(dry.status).toBe(1);
      const listed = dry.stdout.split('\n').filter((l) => l.startsWith('  '));
      expect(listed.map((l) => l.trim().replace(/ \(.*\)$/, ''))).toEqual([
        expect.stringMatching(/^s3-uploads\/[0-9a-f]+\/part-00001$/),
        expect.stringMatching(/^s3-uploads\/[0-9a-f]+\/upload\.json$/),
        // The object's file as the local S3 stores its key (io/stored-paths may mark the name).
        expect.stringMatching(new RegExp(`^s3/${ERRORS_BUCKET}/mine/notes\\.txt%?$`)),
        'state/notes.txt',
      ]);
      expect(dry.stderr).toMatch(
        new RegExp(
          `LakeHasForeignDataError: .* holds files the lab did not write: data: multipart uploads to s3://${ERRORS_BUCKET} not yet completed \\(2 files, .*\\), s3://${ERRORS_BUCKET} \\(1 file, 8 B\\); service state: state/notes\\.txt \\(1 file, 4 B\\).*would remove nothing.*pnpm lab reset --discard-data`,
        ),
      );
      expect(dry.stderr).not.toMatch(STACK_LINE);

      // Neither reset nor the whole lab removes anything without the flag.
      for (const args of [['reset'], []]) {
        const refused = await run('lab', [...args, ...where]);
        expect(refused.status).toBe(1);
        expect(refused.stderr).toMatch(/holds files the lab did not write: .*--discard-data/);
        expect(refused.stdout).not.toMatch(/emptying|Removing/);
        expect(lakeFiles(lake)).toEqual(before);
      }
      expect(existsSync(join(out, 'state-local.json'))).toBe(true);

      // With it: the dry run and the real run count the same files, every one of them, and all of them go.
      const n = before.size;
      const total = new RegExp(`the local lake .*local \\(${n} files, `);
      const dryDiscard = await run('lab', ['reset', '--dry-run', '--discard-data', ...where]);
      expect(dryDiscard.status).toBe(0);
      expect(dryDiscard.stdout).toMatch(new RegExp(`Would remove ${total.source}`));
      expect(lakeFiles(lake)).toEqual(before);
      const reset = await run('lab', ['reset', '--discard-data', ...where]);
      expect(reset.status).toBe(0);
      expect(reset.stdout).toMatch(new RegExp(`Removing ${total.source}`));
      expect(reset.stdout).toMatch(new RegExp(`Done: removed ${n} files \\(`));
      expect([existsSync(lake), existsSync(join(out, 'state-local.json'))]).toEqual([false, false]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 180_000);

  test('a folder holding only a file put there by hand is not "0 data files": both commands refuse and keep it', async () => {
    const out = mkdtempSync(join(tmpdir(), 'lake-cli-'));
    const lake = join(out, 'local');
    mkdirSync(join(lake, 'state'), { recursive: true });
    writeFileSync(join(lake, 'state', 'notes.txt'), 'mine');
    try {
      for (const args of [['reset'], ['reset', '--dry-run'], []]) {
        const r = await run('lab', [...args, '--data-dir', lake, '--out-dir', out]);
        expect(r.status).toBe(1);
        expect(r.stderr).toMatch(
          /holds files the lab did not write: service state: state\/notes\.txt \(1 file, 4 B\)/,
        );
        expect(r.stdout).not.toContain('0 data files');
        expect(readFileSync(join(lake, 'state', 'notes.txt'), 'utf8')).toBe('mine');
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('commands in the wrong place or at the wrong time touch nothing', () => {
  test('while a lab writes the lake, lab run and the whole lab are refused naming the holder, and its manifest is left alone', async () => {
    const out = mkdtempSync(join(tmpdir(), 'lake-cli-'));
    const lake = join(out, 'local');
    const where = ['--data-dir', lake, '--out-dir', out];
    try {
      const lab = start('lab', ['run', 'load', '--records', '5000', '--buffer-interval', '10', ...where]);
      await lab.waitFor('▶ Load 5,000 records', 60_000);
      const manifest = readFileSync(join(lake, LAKE_MANIFEST), 'utf8');
      const [second, whole] = [
        await run('lab', ['run', 'time-travel', ...where]),
        await run('lab', [...where, '--out-dir', join(out, 'other')]),
      ];
      for (const r of [second, whole]) {
        expect(r.status).toBe(1);
        expect(r.stderr).toMatch(
          /DataFolderHeldError: The data folder .*local is in use by the loglake local endpoint/,
        );
        expect(r.stdout).not.toContain('emptying');
      }
      expect(readFileSync(join(lake, LAKE_MANIFEST), 'utf8')).toBe(manifest);
      lab.child.kill('SIGINT');
      expect((await lab.done).status).toBe(130);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);

  test('a data folder or an --out-dir that is a file is named with the fix, before any lake is emptied', async () => {
    const out = mkdtempSync(join(tmpdir(), 'lake-cli-'));
    const file = join(out, 'a-file');
    writeFileSync(file, 'mine');
    const lake = join(out, 'local');
    mkdirSync(join(lake, 'warehouse'), { recursive: true });
    writeFileSync(
      join(lake, LAKE_MANIFEST),
      JSON.stringify({
        lakeId: 'l',
        writtenBy: 'pnpm lab',
        version: 2,
        updatedAt: '',
        files: { 's3/b/k': 3 },
      }),
    );
    mkdirSync(join(lake, 's3', 'b'), { recursive: true });
    writeFileSync(join(lake, 's3', 'b', 'k'), 'lab');
    try {
      const reset = await run('lab', ['reset', '--data-dir', file, '--out-dir', out]);
      expect(reset.status).toBe(1);
      expect(reset.stderr).toMatch(
        /^DataFolderError: --data-dir .*a-file: .*a-file is a file, not a folder/m,
      );
      const lab = await run('lab', ['--data-dir', lake, '--out-dir', file]);
      expect(lab.status).toBe(1);
      expect(lab.stderr).toMatch(/^DataFolderError: --out-dir .*a-file: .*a-file is a file, not a folder/m);
      expect(lab.stdout).not.toContain('emptying');
      expect(readFileSync(join(lake, 's3', 'b', 'k'), 'utf8')).toBe('lab');
      expect(readFileSync(file, 'utf8')).toBe('mine');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});
