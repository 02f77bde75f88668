// What a query reads and writes in S3 as its caller, for the authorization step at StartQueryExecution: the S3
// locations of the Glue tables its statement reads, the results object, and a CTAS's data. Its own module because
// it is the statement read as S3 access (Athena User Guide, "Control access to Amazon S3 from Athena"), which the
// handler passes to the authorizer's checks (StatementAuthorization) in its own order.
import type { PreparedStatement, QueryContext, TableAccess } from '@loglake/lakehouse';
import type { AthenaS3Write } from '../authz/athena-statements';
import type { AthenaAccess } from './operation';
import { managedResults, resultsLocation, resultsObject } from './result-location';
import type { WorkGroupRecord } from './workgroups';

/**
 * The S3 locations of the default catalog's tables a statement reads: Athena reads them as its caller (Athena User
 * Guide, "Control access to Amazon S3 from Athena"). S3 Tables' data is Lake Formation's (its GetDataAccess).
 */
export function s3Reads(access: AthenaAccess, prepared: PreparedStatement, context: QueryContext): string[] {
  let accesses: readonly TableAccess[];
  try {
    accesses = prepared.tableAccesses?.(context) ?? [];
  } catch {
    return []; // a name the engine cannot qualify: the statement fails the same way when it runs
  }
  return accesses.flatMap((a) => {
    if (a.catalog !== 'awsdatacatalog' || a.kind !== 'read' || !a.table) return [];
    const location = access.glueTableLocation?.(a.schema, a.table);
    return location ? [location] : [];
  });
}

/**
 * What Athena writes to S3 for a query, as its caller: the results file in the output location (unless the workgroup
 * keeps results in managed storage) and, for a CTAS with external_location, its data under that location.
 */
export function s3Writes(
  group: WorkGroupRecord,
  requested: string | undefined,
  prepared: PreparedStatement,
  id: string,
): AthenaS3Write[] {
  const writes: AthenaS3Write[] = [];
  const output = resultsLocation(group, requested);
  if (output && !managedResults(group))
    writes.push({ object: resultsObject(output, id), purpose: 'results' });
  if (prepared.externalLocation)
    writes.push({ object: `${prepared.externalLocation.replace(/\/?$/, '/')}${id}`, purpose: 'ctas' });
  return writes;
}
