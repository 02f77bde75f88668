// The SDK clients the snapshots unit's helpers take, on AWS (standard credential chain). Locally the lab uses
// the unit's own localSnapshotClients, pointed at the in-process endpoint.
import { AthenaClient } from '@aws-sdk/client-athena';
import { GlueClient } from '@aws-sdk/client-glue';
import { S3Client } from '@aws-sdk/client-s3';
import { S3TablesClient } from '@aws-sdk/client-s3tables';
import type { LocalClients } from '@loglake/snapshot-lambdas/offline';

export function makeSnapshotClients(region: string): LocalClients {
  const clients = {
    athena: new AthenaClient({ region }),
    glue: new GlueClient({ region }),
    s3: new S3Client({ region }),
    s3tables: new S3TablesClient({ region }),
  };
  return { ...clients, destroy: () => Object.values(clients).forEach((c) => c.destroy()) };
}
