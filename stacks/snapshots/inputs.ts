// Inputs of the snapshots unit: the daily schedule (hour and time zone), the staleness alarm, Lambda sizing and the
// snapshot definitions themselves (data, validated by the pipeline's own rules so a bad definition fails synth, not
// the 06:00 run). Alerts go to the lab-wide topic of the table-bucket unit. Pure: no cdktf.
import {
  parseSnapshotDefinitions,
  type SnapshotDefinition,
  DEFAULT_SNAPSHOT_CUTOFF_BYTES,
} from '@loglake/snapshot-lambdas/deploy';
import type { InputsSpec, UnitContext } from '../lib/contract';
import { UnitConfigError } from '../lib/errors';
import { FieldReader } from '../lib/fields';
import { ATHENA_MIN_CUTOFF } from '../lib/policy/rules';
import { readLabPrincipals } from '../table-bucket/inputs';

export interface SnapshotsInputs {
  /** Glue database the snapshot tables are catalogued in (Athena database). */
  readonly databaseName: string;
  /** The snapshot bucket is `<prefix>-<account id>`. */
  readonly bucketNamePrefix: string;
  /** Safety net under the pipeline's runs-to-keep: objects older than this are expired by S3. */
  readonly objectExpiryDays: number;
  /**
   * The Lambdas' own Athena workgroup: it does not enforce its configuration (the CTAS sets external_location,
   * which an enforcing workgroup refuses), keeps results in the snapshot bucket and has its own cutoff.
   */
  readonly workgroup: { readonly name: string; readonly bytesScannedCutoffPerQuery: number };
  readonly schedule: { readonly hour: number; readonly minute: number; readonly timezone: string };
  /** Principals that run the lab's SQL besides the deployer: they may read the snapshot tables. */
  readonly labPrincipalArns: readonly string[];
  /** The staleness alarm fires when the published watermark's lag exceeds this (or no lag is reported). */
  readonly staleAfterHours: number;
  /** Each Athena query's bound; the Lambdas' timeouts are derived from it (lambdaTimeoutSeconds). */
  readonly queryTimeoutSeconds: number;
  readonly lambda: { readonly memoryMb: number; readonly logRetentionDays: number };
  readonly snapshots: readonly SnapshotDefinition[];
}

/** Lambda's limit on one invocation (15 minutes). */
export const LAMBDA_MAX_TIMEOUT_SECONDS = 900;
/** What an invocation needs beyond its queries: Glue and S3 calls, publishing, cleaning up old runs. */
export const LAMBDA_MARGIN_SECONDS = 60;
/** The Athena queries each handler runs back to back in one invocation (buildSnapshot: the CTAS, then a count). */
export const QUERIES_PER_INVOCATION = { resolveWatermark: 1, buildSnapshot: 2 } as const;
export type SnapshotHandler = keyof typeof QUERIES_PER_INVOCATION;

/** A handler's Lambda timeout: its queries at their bound, back to back, plus the margin. */
export function lambdaTimeoutSeconds(handler: SnapshotHandler, queryTimeoutSeconds: number): number {
  return QUERIES_PER_INVOCATION[handler] * queryTimeoutSeconds + LAMBDA_MARGIN_SECONDS;
}

/** The largest query bound whose every handler still fits Lambda's limit. */
export const MAX_QUERY_TIMEOUT_SECONDS = Math.floor(
  (LAMBDA_MAX_TIMEOUT_SECONDS - LAMBDA_MARGIN_SECONDS) / Math.max(...Object.values(QUERIES_PER_INVOCATION)),
);

export const SNAPSHOTS_OUTPUTS = [
  'snapshot_bucket_name',
  'snapshot_database',
  'state_machine_arn',
  'alert_topic_arn',
  'resolve_watermark_function',
  'build_snapshot_function',
  'snapshot_workgroup',
  // The Lambdas' execution roles: the lab runs the handlers offline as these roles.
  'resolve_watermark_role_arn',
  'build_snapshot_role_arn',
] as const;

// Intl.supportedValuesOf lists the canonical IANA zones without loading ICU's zone rules (~2 ms, against ~40 ms for
// the first DateTimeFormat with a zone, a visible share of a cold synth); aliases it does not list (UTC, US/Eastern)
// still go through DateTimeFormat, so the accepted set is unchanged.
let canonicalZones: ReadonlySet<string> | undefined;

function validTimeZone(tz: string): boolean {
  canonicalZones ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (canonicalZones.has(tz)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const spec: InputsSpec<SnapshotsInputs> = {
  stack: 'snapshots',
  outputs: SNAPSHOTS_OUTPUTS,
  resolveInputs(raw, unit: UnitContext): SnapshotsInputs {
    const r = new FieldReader(unit.name, raw);
    const s = r.child('schedule');
    const wg = r.child('workgroup');
    const l = r.child('lambda');
    const underscored = unit.namePrefix.replaceAll('-', '_');
    const timezone = s.string('timezone', 'UTC');
    if (!validTimeZone(timezone)) {
      s.fail(
        'timezone',
        `is "${timezone}", which is not an IANA time zone`,
        'use e.g. "UTC" or "Europe/Paris"',
        timezone,
      );
    }
    const logRetentionDays = l.logRetentionDays('logRetentionDays', 14);
    let snapshots: SnapshotDefinition[];
    try {
      // Like every named resource of the lab, a snapshot table carries the lab prefix (lab policy):
      // `vpc_flow_logs_daily` is catalogued, stored and scheduled as `loglake_01_vpc_flow_logs_daily`.
      snapshots = parseSnapshotDefinitions(raw.snapshots).map((d) =>
        d.name.startsWith(`${underscored}_`) ? d : { ...d, name: `${underscored}_${d.name}` },
      );
      parseSnapshotDefinitions(snapshots);
    } catch (error) {
      throw new UnitConfigError(
        unit.name,
        'inputs.snapshots',
        `is invalid: ${(error as Error).message}`,
        'fix that definition (see stacks/snapshots/inputs.ts for the fields)',
        raw.snapshots,
      );
    }
    return {
      databaseName: r.string('databaseName', `${underscored}_snapshots`, {
        re: new RegExp(`^${underscored}_[a-z0-9_]+$`),
        fix: `start with "${underscored}_" and use a-z, 0-9 and _`,
      }),
      bucketNamePrefix: r.string('bucketNamePrefix', `${unit.namePrefix}-snapshots`, {
        re: new RegExp(`^${unit.namePrefix}-[a-z0-9-]+$`),
        fix: `start with "${unit.namePrefix}-" and use a-z, 0-9 and -`,
      }),
      objectExpiryDays: r.int('objectExpiryDays', 30, {
        min: 2,
        why: 'older runs than the published one must survive a day',
      }),
      workgroup: {
        name: wg.string('name', `${unit.namePrefix}-snapshots`, {
          re: new RegExp(`^${unit.namePrefix}-[a-zA-Z0-9._-]+$`),
          fix: `start with "${unit.namePrefix}-" and use letters, digits, '.', '_' and '-'`,
        }),
        bytesScannedCutoffPerQuery: wg.int('bytesScannedCutoffPerQuery', DEFAULT_SNAPSHOT_CUTOFF_BYTES, {
          min: ATHENA_MIN_CUTOFF,
          why: "Athena's minimum per-query cutoff is 10 MiB = 10485760 bytes",
        }),
      },
      schedule: {
        hour: s.int('hour', 6, { min: 0, max: 23 }),
        minute: s.int('minute', 0, { min: 0, max: 59 }),
        timezone,
      },
      labPrincipalArns: readLabPrincipals(r),
      staleAfterHours: r.int('staleAfterHours', 48, {
        min: 25,
        max: 24 * 14,
        why: 'a daily snapshot is normally up to ~30 h behind',
      }),
      queryTimeoutSeconds: r.int('queryTimeoutSeconds', MAX_QUERY_TIMEOUT_SECONDS, {
        min: 30,
        max: MAX_QUERY_TIMEOUT_SECONDS,
        why: `buildSnapshot runs ${QUERIES_PER_INVOCATION.buildSnapshot} queries back to back (the CTAS, then a count), which with ${LAMBDA_MARGIN_SECONDS} s to spare must fit Lambda's ${LAMBDA_MAX_TIMEOUT_SECONDS} s limit`,
      }),
      lambda: { memoryMb: l.int('memoryMb', 512, { min: 128, max: 10240 }), logRetentionDays },
      snapshots,
    };
  },
};
