// Lists every kind, retrying with backoff while anything is left (deletes are eventually consistent): the lab
// is gone only when one full pass finds nothing. A kind that cannot be listed counts as not verified.
import type { TeardownClients } from './clients';
import { KINDS, type KindLister, type Leftover } from './kinds';
import type { LabScope } from './scope';

export interface VerifyOptions {
  readonly scope: LabScope;
  readonly clients: TeardownClients;
  readonly attempts: number;
  /** First wait between attempts; doubles each time up to maxDelayMs. */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  readonly kinds?: readonly KindLister[];
  readonly sleep?: (ms: number) => Promise<void>;
  readonly onAttempt?: (attempt: number, result: VerifyResult) => void;
}

export interface VerifyResult {
  readonly leftovers: readonly Leftover[];
  /** Kinds whose listing failed, with the reason: nothing can be claimed about them. */
  readonly unverified: ReadonlyArray<{ readonly kind: string; readonly reason: string }>;
  readonly attempts: number;
  readonly clean: boolean;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function backoffDelay(attempt: number, baseDelayMs: number, maxDelayMs: number): number {
  return Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
}

export async function checkOnce(
  clients: TeardownClients,
  scope: LabScope,
  kinds: readonly KindLister[] = KINDS,
): Promise<Omit<VerifyResult, 'attempts'>> {
  const settled = await Promise.allSettled(kinds.map((k) => k.list(clients, scope)));
  const leftovers: Leftover[] = [];
  const unverified: Array<{ kind: string; reason: string }> = [];
  settled.forEach((s, i) => {
    if (s.status === 'fulfilled') leftovers.push(...s.value);
    else
      unverified.push({
        kind: kinds[i]!.kind,
        reason: `${(s.reason as Error).name}: ${(s.reason as Error).message}`,
      });
  });
  return { leftovers, unverified, clean: leftovers.length === 0 && unverified.length === 0 };
}

export async function verifyTeardown(options: VerifyOptions): Promise<VerifyResult> {
  const sleep = options.sleep ?? wait;
  const base = options.baseDelayMs ?? 5000;
  const max = options.maxDelayMs ?? 60000;
  let result: VerifyResult | undefined;
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    result = { ...(await checkOnce(options.clients, options.scope, options.kinds)), attempts: attempt };
    options.onAttempt?.(attempt, result);
    if (result.clean || attempt === options.attempts) break;
    await sleep(backoffDelay(attempt, base, max));
  }
  return result!;
}
