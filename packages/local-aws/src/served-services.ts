// The AWS services the local endpoint serves: the one list every "it serves …" sentence and the unserved-service
// check are derived from. endpoint-services.ts builds one module for each (its `services` array, in claim order) and checks
// at start that the two agree, so a service added there and not here stops the endpoint instead of going unsaid.
import { LocalAwsError } from './errors';

export interface ServedServiceName {
  /** The name AWS's docs use. */
  name: string;
  /** SigV4 signing name (CloudWatch signs as `monitoring`; the Iceberg REST endpoint as `s3tables`). */
  signingName: string;
  /** The service module's name (`ServiceModule.name`). */
  module: string;
}

export const SERVED_SERVICES: readonly ServedServiceName[] = [
  { name: 'S3 Tables', signingName: 's3tables', module: 'S3Tables' },
  { name: "S3 Tables' Iceberg REST endpoint", signingName: 's3tables', module: 'S3TablesIcebergRest' },
  { name: 'Firehose', signingName: 'firehose', module: 'Firehose' },
  { name: 'Athena', signingName: 'athena', module: 'Athena' },
  { name: 'CloudWatch', signingName: 'monitoring', module: 'CloudWatch' },
  { name: 'Glue', signingName: 'glue', module: 'Glue' },
  { name: 'S3', signingName: 's3', module: 'S3' },
  { name: 'STS', signingName: 'sts', module: 'STS' },
];

export const SERVED_SIGNING_NAMES: ReadonlySet<string> = new Set(SERVED_SERVICES.map((s) => s.signingName));

/** "S3 Tables, S3 Tables' Iceberg REST endpoint, …, S3 and STS". */
export function servedServicesText(): string {
  const names = SERVED_SERVICES.map((s) => s.name);
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** Throws when the endpoint's service modules are not exactly the list's (a bug in this package, not a user's). */
export function checkServedList(modules: readonly string[]): void {
  const listed = SERVED_SERVICES.map((s) => s.module);
  const unlisted = modules.filter((m) => !listed.includes(m));
  const unbuilt = listed.filter((m) => !modules.includes(m));
  if (unlisted.length > 0 || unbuilt.length > 0)
    throw new LocalAwsError(
      `served-services.ts and the endpoint's modules disagree: not listed ${JSON.stringify(unlisted)}, not built ${JSON.stringify(unbuilt)}. Add the service to SERVED_SERVICES (or remove it).`,
      { value: modules },
    );
}
