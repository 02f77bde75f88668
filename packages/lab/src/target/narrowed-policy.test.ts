// The lab's own roles pass because their policies are wide enough (run-lab.test.ts); this narrows one on purpose and
// shows the lab step that needs it fail with a clear denial, so the authorization the endpoint enforces is the
// synthesized stacks' own and a policy too narrow for the lab would be caught offline.
import { afterAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SynthesizedAccess } from '@loglake/stacks/access';
import { PART1 } from '../experiments/part1';
import { PART3 } from '../experiments/daily-snapshot';
import { runLab } from '../experiments/run-lab';
import { openTarget } from './open-target';

const dir = mkdtempSync(join(tmpdir(), 'lab-narrowed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The access model with one action taken out of one role's inline policies. */
function without(roleName: string, action: string) {
  return (access: SynthesizedAccess): SynthesizedAccess => {
    let removed = 0;
    const roles = access.roles.map((role) =>
      role.name !== roleName
        ? role
        : {
            ...role,
            policies: role.policies.map((p) => {
              const doc = p.document as { Statement: Array<{ Action: string | string[] }> };
              return {
                ...p,
                document: {
                  ...doc,
                  Statement: doc.Statement.map((s) => {
                    const actions = ([] as string[]).concat(s.Action);
                    removed += actions.filter((a) => a === action).length;
                    return { ...s, Action: actions.filter((a) => a !== action) };
                  }).filter((s) => s.Action.length > 0),
                },
              };
            }),
          },
    );
    if (removed === 0) throw new Error(`role ${roleName} has no ${action} to take out`);
    return { ...access, roles };
  };
}

async function runNarrowed(
  name: string,
  narrow: (a: SynthesizedAccess) => SynthesizedAccess,
  steps: typeof PART1,
) {
  const target = await openTarget({
    target: 'local',
    dataDir: join(dir, name, 'local'),
    bufferIntervalSeconds: 1,
    narrowAccess: narrow,
  });
  try {
    const { report } = await runLab({
      target,
      experiments: steps,
      scale: { records: 300, hours: 24, bursts: 0, burstSize: 10, seed: 5 },
      outDir: join(dir, name, 'out'),
      fresh: true,
      log: () => undefined,
      stopOnError: true,
    });
    return report.experiments;
  } finally {
    await target.close();
  }
}

describe('a policy narrowed on purpose', () => {
  test("Firehose's role without glue:UpdateTable: the load fails, naming the denied action and the role", async () => {
    const load = PART1.filter((e) => e.name === 'load');
    const [result] = await runNarrowed('firehose', without('loglake-01-firehose', 'glue:UpdateTable'), load);
    expect(result?.error).toMatch(
      /^DeliveryDeniedError: Firehose could not deliver \d+ records to network\.vpc_flow_logs with the stream's role: User: arn:aws:sts::123456789012:assumed-role\/loglake-01-firehose\/firehose is not authorized to perform: glue:UpdateTable on resource: arn:aws:glue:us-east-1:123456789012:catalog because no identity-based policy allows the glue:UpdateTable action$/,
    );
  });

  test("the snapshot build Lambda's role without glue:CreateTable: the daily snapshot fails with Athena's reason", async () => {
    const steps = [...PART1.filter((e) => e.name === 'load'), ...PART3];
    const results = await runNarrowed(
      'snapshot',
      without('loglake-01-snapshot-build', 'glue:CreateTable'),
      steps,
    );
    expect(results.map((r) => [r.name, r.error === undefined])).toEqual([
      ['load', true],
      ['daily-snapshot', false],
    ]);
    expect(results[1]?.error).toContain(
      'Insufficient permissions to execute the query. User: arn:aws:sts::123456789012:assumed-role/loglake-01-snapshot-build/lambda is not authorized to perform: glue:CreateTable on resource: arn:aws:glue:us-east-1:123456789012:catalog because no identity-based policy allows the glue:CreateTable action',
    );
  });
});
