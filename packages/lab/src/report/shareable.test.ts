// The banner as the report keeps it: no machine's paths.
import { describe, expect, test } from '@jest/globals';
import { shareableLine, shareablePath, shareableValue } from './shareable';

const roots = { repoRoot: '/home/ana/src/loglake', home: '/home/ana' };

describe('shareable lines', () => {
  test.each([
    ['/home/ana/src/loglake/.lab/local', '.lab/local'],
    ['/home/ana/src/loglake', '.'],
    ['/home/ana/labs/data', '~/labs/data'],
    ['/tmp/lab-e2e-Xy12/local', '…/local'],
    ['/home/ana/src/loglake-other/x', '~/src/loglake-other/x'],
  ])('%s → %s', (path, shown) => {
    expect(shareablePath(path, roots)).toBe(shown);
  });

  test('the local banner keeps the endpoint URL and loses the data folder', () => {
    expect(
      shareableLine(
        'target local: in-process endpoint http://127.0.0.1:36705 (no AWS account used), data in /home/ana/src/loglake/.lab/local',
        roots,
      ),
    ).toBe(
      'target local: in-process endpoint http://127.0.0.1:36705 (no AWS account used), data in .lab/local',
    );
    expect(
      shareableLine('outputs from /srv/ci/build-7/.lab/cdktf-outputs.json, region us-east-1', roots),
    ).toBe('outputs from …/cdktf-outputs.json, region us-east-1');
    // An ARN or a key prefix is not a path.
    expect(shareableLine('role arn:aws:iam::123456789012:role/loglake-01-analyst', roots)).toBe(
      'role arn:aws:iam::123456789012:role/loglake-01-analyst',
    );
  });
});

describe('a whole report made shareable', () => {
  const lake = { ...roots, dataDir: '/tmp/lab-e2e-Xy12/local' };

  test("an engine error quoting a file in the lake keeps the path from the lake's name on; a stack's frames lose the machine's", () => {
    expect(
      shareableLine(
        'No files found that match the pattern "/tmp/lab-e2e-Xy12/local/warehouse/warehouse/b/network/t-0a1b2c3d/data/x.parquet"',
        lake,
      ),
    ).toBe(
      'No files found that match the pattern "…/local/warehouse/warehouse/b/network/t-0a1b2c3d/data/x.parquet"',
    );
    expect(
      shareableLine(
        'at run (file:///home/ana/src/loglake/node_modules/.pnpm/duckdb/index.js:12:5)\n    at /usr/lib/node/x.js:1:2',
        lake,
      ),
    ).toBe('at run (node_modules/.pnpm/duckdb/index.js:12:5)\n    at …/x.js:1:2');
  });

  test('every string, however deep, and nothing else', () => {
    const report = {
      banner: ['data in /tmp/lab-e2e-Xy12/local'],
      experiments: [
        { error: 'DataFolderError: --data-dir /tmp/lab-e2e-Xy12/local was removed', durationMs: 3 },
      ],
      url: 'http://127.0.0.1:4566/x',
    };
    expect(shareableValue(report, lake)).toEqual({
      banner: ['data in …/local'],
      experiments: [{ error: 'DataFolderError: --data-dir …/local was removed', durationMs: 3 }],
      url: 'http://127.0.0.1:4566/x',
    });
    expect(report.banner[0]).toBe('data in /tmp/lab-e2e-Xy12/local');
  });
});
