// Where a query's results go: the workgroup's output location or the request's (the workgroup's wins when it
// enforces its configuration), or Athena-managed storage, which has no S3 location. Its own module because three
// jobs read the same rule: describing an execution, checking what it writes to S3, and checking who may read it.
import { enforcesConfiguration } from './workgroup-rules';
import type { WorkGroupRecord } from './workgroups';

export function outputLocationOf(group: WorkGroupRecord | undefined): string | undefined {
  return group?.Configuration.ResultConfiguration?.OutputLocation;
}

export function managedResults(group: WorkGroupRecord | undefined): boolean {
  return group?.Configuration.ManagedQueryResultsConfiguration?.Enabled === true;
}

/**
 * The output location of a query in `group` that asked for `requested` (undefined when neither names one). A
 * workgroup that no longer exists has no location, so the query's own stands.
 */
export function resultsLocation(
  group: WorkGroupRecord | undefined,
  requested: string | undefined,
): string | undefined {
  const enforced = group ? enforcesConfiguration(group) : true;
  return (enforced ? outputLocationOf(group) : undefined) ?? requested ?? outputLocationOf(group);
}

/** The results object of execution `id` under an output location (`s3://bucket/prefix/<id>.csv`). */
export function resultsObject(location: string, id: string): string {
  return `${location.replace(/\/?$/, '/')}${id}.csv`;
}
