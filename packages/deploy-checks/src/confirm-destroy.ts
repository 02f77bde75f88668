// Destroying a region-level unit takes away what every lab (and every other S3 Tables user) of the account and
// region relies on: deleting s3tablescatalog and deregistering bucket/* cuts Athena, Firehose and every other
// integrated engine off from all table buckets of the region. So its destroy runs only when asked for by name.
import { DestroyNotConfirmedError } from './errors';

/** The variable that must name the unit for its destroy to go ahead. */
export const CONFIRM_DESTROY_ENV = 'LOGLAKE_CONFIRM_DESTROY';

export function confirmDestroy(env: NodeJS.ProcessEnv, unit: string, consequence: string): string {
  const given = (env[CONFIRM_DESTROY_ENV] ?? '').split(',').map((s) => s.trim());
  if (given.includes(unit)) return `destroy of ${unit} confirmed by ${CONFIRM_DESTROY_ENV}`;
  throw new DestroyNotConfirmedError(
    `Refusing to destroy the region-level unit ${unit}: ${consequence} ` +
      `If that is what you want, run \`pnpm lab destroy --include-regional\`, or set ${CONFIRM_DESTROY_ENV}=${unit} for this cdktf destroy. ` +
      'Nothing of this unit was destroyed.',
    { value: unit },
  );
}
