// The banner as the report keeps it: no machine's paths.
import { describe, expect, test } from '@jest/globals';
import { shareableLine, shareablePath } from './shareable';

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
