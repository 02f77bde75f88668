// Lambda entry: the snapshot pre-processor. Clients, config and metrics are built once per cold start; a bad
// environment fails the init (and so the first invocation) with a message naming the variable.
import { AthenaClient } from '@aws-sdk/client-athena';
import { GlueClient } from '@aws-sdk/client-glue';
import { readHandlerConfig } from '../env';
import { createMetrics, powertoolsSink } from '../metrics';
import {
  resolveWatermark,
  type ResolveWatermarkInput,
  type ResolveWatermarkOutput,
} from '../resolve-watermark';

const config = readHandlerConfig();
const athena = new AthenaClient({});
const glue = new GlueClient({});
const metrics = powertoolsSink(createMetrics());

export const handler = (event: ResolveWatermarkInput): Promise<ResolveWatermarkOutput> =>
  resolveWatermark({ athena, glue, config, metrics, now: () => new Date() }, event);
