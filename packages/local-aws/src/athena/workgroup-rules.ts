// What Athena refuses at StartQueryExecution because of the workgroup's configuration, rather than at run time.
import type { PreparedStatement } from '@loglake/lakehouse';
import { invalidRequest, type WorkGroupRecord } from './workgroups';

/**
 * Athena's text for a CTAS with `external_location` submitted to a workgroup that overrides client-side settings
 * (an InvalidRequestException from StartQueryExecution, as dbt-labs/dbt-athena#176 quotes it). The rule:
 * "If the workgroup in which a query will run is configured with an enforced query results location, do not specify
 * an external_location for the CTAS query. Athena issues an error and fails a query that specifies an
 * external_location in this case." (Athena User Guide, "Considerations and limitations for CTAS queries").
 */
export const CTAS_EXTERNAL_LOCATION_ENFORCED =
  "The Create Table As Select query failed because it was submitted with an 'external_location' property to an Athena Workgroup that enforces a centralized output location for all queries. Please remove the 'external_location' property and resubmit the query.";

export function enforcesConfiguration(group: WorkGroupRecord): boolean {
  return group.Configuration.EnforceWorkGroupConfiguration !== false;
}

/**
 * Refuses a CTAS with external_location in a workgroup that enforces its configuration. AWS does not document
 * whether Athena-managed query results count as an "enforced query results location", so the local endpoint refuses
 * whenever the workgroup enforces its configuration, wherever its results go: the stacks give CTAS writers a
 * workgroup that does not enforce, and nothing depends on the undocumented case. The statement is the one the
 * engine parsed at StartQueryExecution (a statement that does not parse was refused before this check, see
 * QueryRunner.prepare).
 */
export function checkStatementAgainstWorkGroup(statement: PreparedStatement, group: WorkGroupRecord): void {
  if (enforcesConfiguration(group) && statement.externalLocation !== undefined)
    throw invalidRequest(CTAS_EXTERNAL_LOCATION_ENFORCED);
}
