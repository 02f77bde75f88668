// The check-leftovers command: parse the lab id and CHECK_ATTEMPTS, verify, print the table, exit 0 only when
// nothing is left. The caller supplies the lab's scope (scripts/check-leftovers.ts reads it from units/).
import { createClients, type TeardownClients } from './clients';
import { TeardownInputError } from './errors';
import { formatReport } from './report';
import type { LabScope } from './scope';
import { verifyTeardown, type VerifyOptions } from './verify';

export interface CheckIo {
  readonly log: (line: string) => void;
  readonly error: (line: string) => void;
}

export function parseAttempts(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 50)
    throw new TeardownInputError(
      `CHECK_ATTEMPTS="${raw}" must be an integer from 1 to 50, e.g. CHECK_ATTEMPTS=4`,
      { value: raw },
    );
  return n;
}

export function parseLabId(raw: string | undefined): string {
  if (!raw || !/^\d{2}$/.test(raw))
    throw new TeardownInputError(
      `lab id "${raw ?? ''}" must be two digits; usage: tsx scripts/check-leftovers.ts 01`,
      { value: raw },
    );
  return raw;
}

export async function runCheck(
  scope: LabScope,
  options: { attempts: number; clients?: TeardownClients; io?: CheckIo } & Pick<
    VerifyOptions,
    'sleep' | 'baseDelayMs' | 'maxDelayMs' | 'kinds'
  >,
): Promise<number> {
  const io = options.io ?? { log: console.log, error: console.error };
  const label = `lab ${scope.labId} (${scope.namePrefix}*) in ${scope.region}`;
  const result = await verifyTeardown({
    ...options,
    scope,
    clients: options.clients ?? createClients(scope.region),
    onAttempt: (n, r) => {
      if (!r.clean && n < options.attempts)
        io.log(
          `attempt ${n}/${options.attempts}: ${r.leftovers.length} left, ${r.unverified.length} unchecked; retrying…`,
        );
    },
  });
  (result.clean ? io.log : io.error)(formatReport(result, label));
  return result.clean ? 0 : 1;
}
