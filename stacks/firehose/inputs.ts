// Inputs of the firehose unit: stream buffering, error bucket retention, log retention. Pure.
import type { InputsSpec, UnitContext } from '../lib/contract';
import { FieldReader } from '../lib/fields';

export interface FirehoseInputs {
  readonly streamName: string;
  /** Firehose Iceberg buffering: flush at this many MiB or this many seconds, whichever comes first. */
  readonly buffering: { readonly sizeMb: number; readonly intervalSeconds: number };
  readonly errorBucket: {
    readonly namePrefix: string;
    readonly errorPrefix: string;
    readonly expireAfterDays: number;
  };
  readonly logRetentionDays: number;
  readonly retryDurationSeconds: number;
}

export const FIREHOSE_OUTPUTS = [
  'stream_name',
  'stream_arn',
  'error_bucket_name',
  'role_arn',
  'log_group_name',
] as const;

export const spec: InputsSpec<FirehoseInputs> = {
  stack: 'firehose',
  outputs: FIREHOSE_OUTPUTS,
  resolveInputs(raw, unit: UnitContext): FirehoseInputs {
    const r = new FieldReader(unit.name, raw);
    const b = r.child('buffering');
    const e = r.child('errorBucket');
    const prefixed = (what: string) => ({
      re: new RegExp(`^${unit.namePrefix}-[a-z0-9-]+$`),
      fix: `${what} must start with "${unit.namePrefix}-" and use a-z, 0-9 and -`,
    });
    const logRetentionDays = r.logRetentionDays('logRetentionDays', 7);
    return {
      streamName: r.string('streamName', `${unit.namePrefix}-vpc-flow-logs`, prefixed('the stream name')),
      buffering: {
        sizeMb: b.int('sizeMb', 1, { min: 1, max: 128, why: 'Firehose buffers 1–128 MiB' }),
        intervalSeconds: b.int('intervalSeconds', 60, { min: 0, max: 900, why: 'Firehose buffers 0–900 s' }),
      },
      errorBucket: {
        namePrefix: e.string(
          'namePrefix',
          `${unit.namePrefix}-firehose-errors`,
          prefixed('the error bucket name prefix'),
        ),
        errorPrefix: e.string('errorPrefix', 'errors/', {
          re: /^[A-Za-z0-9!_.*'()\-/]+\/$/,
          fix: 'use a key prefix ending in "/"',
        }),
        expireAfterDays: e.int('expireAfterDays', 7, { min: 1 }),
      },
      logRetentionDays,
      retryDurationSeconds: r.int('retryDurationSeconds', 300, { min: 0, max: 7200 }),
    };
  },
};
