// A lab target: the SDK clients pointed at one place (the in-process local endpoint, or AWS through the standard
// credential chain) plus the lab's resource names. Nothing else in the lab knows which one it is.
import { AthenaClient } from '@aws-sdk/client-athena';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { FirehoseClient } from '@aws-sdk/client-firehose';
import { S3Client } from '@aws-sdk/client-s3';
import { S3TablesClient } from '@aws-sdk/client-s3tables';
import { localClientConfig } from '@loglake/local-aws';
import type { AthenaTarget } from '../query/athena-runner';
import { athenaCatalog, type LabResources, type TargetKind } from './resources';

export interface LabTarget {
  readonly kind: TargetKind;
  readonly resources: LabResources;
  readonly firehose: FirehoseClient;
  readonly athena: AthenaClient;
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
  return {
    kind,
    resources,
    ...clients,
    banner,
    ...(settings.endpoint ? { localUrl: settings.endpoint } : {}),
    athenaTarget(database = resources.namespace): AthenaTarget {
      return {
        client: clients.athena,
        workgroup: resources.workgroup,
        catalog: athenaCatalog(resources),
        database,
        bytesScannedCutoff: resources.bytesScannedCutoff,
      };
    },
    async close() {
      for (const client of Object.values(clients)) client.destroy();
      await close();
    },
  };
}
