// A query execution as GetQueryExecution and BatchGetQueryExecution report it: its record (queries.ts) read with its
// workgroup's settings into Athena's QueryExecution (result location, engine version, status and statistics). Its own
// module because two handlers answer it and the record alone does not say it (the workgroup may change after).
import type { QueryExecution } from '@aws-sdk/client-athena';
import type { Wire } from '../model/api';
import type { QueryRecord } from './queries';
import { managedResults, resultsLocation, resultsObject } from './result-location';
import { engineVersion, type WorkGroups } from './workgroups';

export function describeExecution(workgroups: WorkGroups, record: QueryRecord): Wire<QueryExecution> {
  const group = workgroups.find(record.workgroup);
  const outputLocation = resultsLocation(group, record.outputLocation);
  const end = record.completedAt;
  return {
    QueryExecutionId: record.id,
    Query: record.query,
    ...(record.statementType ? { StatementType: record.statementType } : {}),
    ...(record.substatementType ? { SubstatementType: record.substatementType } : {}),
    ResultConfiguration: outputLocation ? { OutputLocation: resultsObject(outputLocation, record.id) } : {},
    ...(managedResults(group) ? { ManagedQueryResultsConfiguration: { Enabled: true } } : {}),
    QueryExecutionContext: {
      ...(record.database ? { Database: record.database } : {}),
      ...(record.catalog ? { Catalog: record.catalog } : {}),
    },
    Status: {
      State: record.state,
      ...(record.stateChangeReason ? { StateChangeReason: record.stateChangeReason } : {}),
      SubmissionDateTime: record.submittedAt / 1000,
      ...(end ? { CompletionDateTime: end / 1000 } : {}),
      ...(record.athenaError ? { AthenaError: record.athenaError } : {}),
    },
    Statistics: {
      EngineExecutionTimeInMillis: record.engineExecutionTimeInMillis,
      DataScannedInBytes: record.dataScannedInBytes,
      TotalExecutionTimeInMillis: end ? end - record.submittedAt : Date.now() - record.submittedAt,
      QueryQueueTimeInMillis: (record.startedAt ?? end ?? Date.now()) - record.submittedAt,
      ServicePreProcessingTimeInMillis: 0,
      QueryPlanningTimeInMillis: 0,
      ServiceProcessingTimeInMillis:
        end && record.startedAt
          ? Math.max(0, end - record.startedAt - record.engineExecutionTimeInMillis)
          : 0,
      ResultReuseInformation: { ReusedPreviousResult: false },
    },
    WorkGroup: record.workgroup,
    EngineVersion: engineVersion(group?.Configuration.EngineVersion?.SelectedEngineVersion ?? undefined),
  };
}
