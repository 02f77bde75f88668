// A lab target: the SDK clients pointed at one place (the in-process local endpoint, or AWS through the standard
// credential chain) plus the lab's resource names. Nothing else in the lab knows which one it is.
import { AthenaClient } from '@aws-sdk/client-athena';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { FirehoseClient } from '@aws-sdk/client-firehose';
import { S3Client } from '@aws-sdk/client-s3';
import { S3TablesClient } from '@aws-sdk/client-s3tables';
import {
  localClientConfig,
  type LocalServiceCredentials,
  type ServiceCredentialsRequest,
} from '@loglake/local-aws';
import type { AthenaTarget } from '@loglake/athena-sql';
import type { CredentialsProvider } from './role-session';
import { athenaCatalog, type LabResources, type TargetKind } from './resources';

export interface LabTarget {
  readonly kind: TargetKind;
  readonly resources: LabResources;
  readonly firehose: FirehoseClient;
  /** Athena as the lab's own credentials (workgroups, query history). */
  readonly athena: AthenaClient;
  /**
   * Athena as the lab's SQL runs: signed as the lab role (table-bucket's `lab_role_arn`, which holds the Lake
   * Formation grants), or the lab's own credentials when there is none. What athenaTarget() queries with.
   */
  readonly sqlAthena: AthenaClient;
  /** Who the lab's SQL runs as: the lab role's ARN, or undefined for the lab's own credentials. */
  readonly sqlRole?: string;
  readonly s3tables: S3TablesClient;
  /** Metrics and alarms (the failed-rows alarm of the bad-records experiment). */
  readonly cloudwatch: CloudWatchClient;
  /** General purpose buckets (Firehose's error output). */
  readonly s3: S3Client;
  /** Lines to print before anything runs: where the lab runs and what differs from the defaults. */
  readonly banner: string[];
  /** Local only: the endpoint's base URL (for its admin hooks, e.g. running maintenance now). */
  readonly localUrl?: string;
  /** aws only: the deployed stacks' outputs file the names were read from (`--outputs-file`). */
  readonly outputsFile?: string;
  /** Local only: the endpoint enforces the synthesized stacks' policies and grants. */
  readonly authorized?: boolean;
  /**
   * Local, in-process endpoint with authorization only: the credentials an AWS service (Lambda) gets for a role it
   * acts as. The endpoint hands them out in-process only, so a running endpoint (`--endpoint-url`) has none.
   */
  readonly serviceCredentials?: (request: ServiceCredentialsRequest) => LocalServiceCredentials;
  /** Local, in-process endpoint only: its data folder (a running endpoint keeps its own). */
  readonly dataDir?: string;
  /** The data folder's identity when the endpoint started on it (data-folder.ts folderIdentity). */
  readonly dataDirIdentity?: string;
  /** Where the target is, in one line (the preamble of `pnpm load` and `pnpm query`). */
  readonly headline?: string;
  athenaTarget(database?: string): AthenaTarget;
  close(): Promise<void>;
}

export interface ClientSettings {
  region: string;
  /** Local: the loopback endpoint and throwaway credentials. AWS: undefined (standard chain). */
  endpoint?: string;
  /** The lab's SQL as this role (its credentials provider): see LabTarget.sqlAthena. */
  sql?: { roleArn: string; credentials: CredentialsProvider };
}

export function makeClients(settings: ClientSettings) {
  const common = settings.endpoint
    ? localClientConfig(settings.endpoint, 1, settings.region)
    : { region: settings.region };
  return {
    firehose: new FirehoseClient(common),
    athena: new AthenaClient(common),
    s3tables: new S3TablesClient(common),
    cloudwatch: new CloudWatchClient(common),
    // The local endpoint takes path-style bucket requests (`/<bucket>/<key>`) on its one host.
    s3: new S3Client(settings.endpoint ? { ...common, forcePathStyle: true } : common),
  };
}

export function buildTarget(
  kind: TargetKind,
  resources: LabResources,
  settings: ClientSettings,
  banner: string[],
  close: () => Promise<void>,
): LabTarget {
  const clients = makeClients(settings);
  const common = settings.endpoint
    ? localClientConfig(settings.endpoint, 1, settings.region)
    : { region: settings.region };
  const sqlAthena = settings.sql
    ? new AthenaClient({ ...common, credentials: settings.sql.credentials })
    : clients.athena;
  return {
    kind,
    resources,
    ...clients,
    sqlAthena,
    ...(settings.sql ? { sqlRole: settings.sql.roleArn } : {}),
    banner,
    ...(settings.endpoint ? { localUrl: settings.endpoint } : {}),
    athenaTarget(database = resources.namespace): AthenaTarget {
      return {
        client: sqlAthena,
        workgroup: resources.workgroup,
        catalog: athenaCatalog(resources),
        database,
        bytesScannedCutoff: resources.bytesScannedCutoff,
      };
    },
    async close() {
      for (const client of Object.values(clients)) client.destroy();
      if (sqlAthena !== clients.athena) sqlAthena.destroy();
      await close();
    },
  };
}
