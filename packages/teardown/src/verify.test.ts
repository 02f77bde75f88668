import { describe, expect, test } from '@jest/globals';
import { runCheck } from './check';
import { createClients } from './clients';
import type { KindLister, Leftover } from './kinds';
import type { LabScope } from './scope';
import { backoffDelay, verifyTeardown } from './verify';

const scope: LabScope = { labId: '01', namePrefix: 'loglake-01', region: 'us-east-1' };
const clients = createClients('us-east-1');

/** A kind whose listing returns the given results in turn (eventual consistency). */
function sequence(kind: string, ...passes: Array<Leftover[] | Error>): KindLister {
  let n = 0;
  return {
    kind,
    async list() {
      const next = passes[Math.min(n++, passes.length - 1)]!;
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

describe('verifyTeardown', () => {
  test('retries with exponential backoff until a pass finds nothing', async () => {
    const slept: number[] = [];
    const kinds = [
      sequence(
        'table bucket',
        [{ kind: 'table bucket', name: 'loglake-01-flow-logs' }],
        [{ kind: 'table bucket', name: 'loglake-01-flow-logs' }],
        [],
      ),
    ];
    const r = await verifyTeardown({
      scope,
      clients,
      attempts: 4,
      kinds,
      baseDelayMs: 100,
      maxDelayMs: 1000,
      sleep: async (ms) => void slept.push(ms),
    });
    expect(r).toEqual({ leftovers: [], unverified: [], attempts: 3, clean: true });
    expect(slept).toEqual([100, 200]);
  });

  test('gives up after CHECK_ATTEMPTS with what is still there', async () => {
    const kinds = [
      sequence('s3 bucket', [{ kind: 's3 bucket', name: 'loglake-01-firehose-errors-123456789012' }]),
    ];
    const r = await verifyTeardown({ scope, clients, attempts: 2, kinds, sleep: async () => {} });
    expect(r.clean).toBe(false);
    expect(r.attempts).toBe(2);
    expect(r.leftovers).toEqual([{ kind: 's3 bucket', name: 'loglake-01-firehose-errors-123456789012' }]);
  });

  test('a kind that cannot be listed is never reported as clean', async () => {
    const kinds = [
      sequence('iam role/policy', Object.assign(new Error('not authorized'), { name: 'AccessDenied' })),
      sequence('log group', []),
    ];
    const r = await verifyTeardown({ scope, clients, attempts: 1, kinds });
    expect(r.clean).toBe(false);
    expect(r.unverified).toEqual([{ kind: 'iam role/policy', reason: 'AccessDenied: not authorized' }]);
  });

  test('backoff doubles and caps', () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffDelay(a, 5000, 30000))).toEqual([
      5000, 10000, 20000, 30000, 30000,
    ]);
  });
});

describe('runCheck (what scripts/check-leftovers runs)', () => {
  test('prints a table of leftovers and exits 1', async () => {
    const lines: string[] = [];
    const io = { log: (l: string) => lines.push(l), error: (l: string) => lines.push(l) };
    const kinds = [
      sequence('athena workgroup', [{ kind: 'athena workgroup', name: 'loglake-01', detail: 'ENABLED' }]),
      sequence('table bucket', []),
    ];
    const code = await runCheck(scope, { attempts: 1, clients, io, kinds });
    expect(code).toBe(1);
    expect(lines.join('\n')).toBe(
      [
        '1 leftover of lab 01 (loglake-01*) in us-east-1 after 1 attempt(s):',
        'KIND              NAME        DETAIL',
        '----------------  ----------  -------',
        'athena workgroup  loglake-01  ENABLED',
        'Delete what is listed (or run the destroy again), then re-run the check.',
      ].join('\n'),
    );
  });

  test('exits 0 only when nothing is left', async () => {
    const lines: string[] = [];
    const code = await runCheck(scope, {
      attempts: 4,
      clients,
      io: { log: (l) => lines.push(l), error: (l) => lines.push(l) },
      kinds: [sequence('table bucket', [])],
    });
    expect(code).toBe(0);
    expect(lines).toEqual(['Nothing left of lab 01 (loglake-01*) in us-east-1 (checked after 1 attempt).']);
  });
});
