// Lambda entry: the CTAS step. Clients, config and metrics are built once per cold start.
import { AthenaClient } from '@aws-sdk/client-athena';
import { GlueClient } from '@aws-sdk/client-glue';
import { S3Client } from '@aws-sdk/client-s3';
import { buildSnapshot, type BuildSnapshotInput, type BuildSnapshotOutput } from '../build-snapshot';
import { readHandlerConfig } from '../env';
import { createMetrics, powertoolsSink } from '../metrics';

const config = readHandlerConfig();
const athena = new AthenaClient({});
const glue = new GlueClient({});
const s3 = new S3Client({});
const metrics = powertoolsSink(createMetrics());

export const handler = (event: BuildSnapshotInput): Promise<BuildSnapshotOutput> =>
  buildSnapshot({ athena, glue, s3, config, metrics, now: () => new Date() }, event);
