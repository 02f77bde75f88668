// Describes answer what was set, so a client that compares (Terraform's plan) sees no change where there was none:
// Athena's selected engine version and result configuration, Firehose's Iceberg destination settings apart from
// its error bucket's own, and Firehose's UpdateDestination (version ids, merged settings).
import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateWorkGroupCommand,
  GetWorkGroupCommand,
  ListWorkGroupsCommand,
  UpdateWorkGroupCommand,
} from '@aws-sdk/client-athena';
import {
  CreateDeliveryStreamCommand,
  DescribeDeliveryStreamCommand,
  UpdateDestinationCommand,
} from '@aws-sdk/client-firehose';
import { startLocalEndpoint, type LocalEndpoint } from './server';
import { localClients, type LocalClients } from '../test/support/clients';
import { MemoryWarehouse } from '../test/support/memory-warehouse';
import { createFlowTable, icebergStreamInput } from '../test/support/lab-setup';

const nameOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'no error',
    (error: { name: string }) => error.name,
  );

describe('describes echo what was set (Athena workgroups, Firehose streams)', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let clients: LocalClients;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-echo-'));
    endpoint = await startLocalEndpoint({
      dataDir: dir,
      engine: { openWarehouse: async () => new MemoryWarehouse() },
    });
    clients = localClients(endpoint.url);
    await createFlowTable(clients.s3tables, 'echo-bucket', [{ name: 'srcaddr', type: 'string' }]);
  });
  afterAll(async () => {
    clients.destroy();
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("an Athena workgroup's selected engine version and result configuration are the ones given", async () => {
    await clients.athena.send(
      new CreateWorkGroupCommand({
        Name: 'echo',
        Configuration: {
          EngineVersion: { SelectedEngineVersion: 'Athena engine version 3' },
          ResultConfiguration: {
            OutputLocation: 's3://results/echo/',
            EncryptionConfiguration: { EncryptionOption: 'SSE_S3' },
          },
        },
      }),
    );
    const get = async () =>
      (await clients.athena.send(new GetWorkGroupCommand({ WorkGroup: 'echo' }))).WorkGroup;
    expect((await get())?.Configuration?.EngineVersion).toEqual({
      SelectedEngineVersion: 'Athena engine version 3',
      EffectiveEngineVersion: 'Athena engine version 3',
    });
    const listed = await clients.athena.send(new ListWorkGroupsCommand({}));
    expect(listed.WorkGroups?.find((g) => g.Name === 'echo')?.EngineVersion?.SelectedEngineVersion).toBe(
      'Athena engine version 3',
    );
    await clients.athena.send(
      new UpdateWorkGroupCommand({
        WorkGroup: 'echo',
        ConfigurationUpdates: {
          EngineVersion: { SelectedEngineVersion: 'AUTO' },
          ResultConfigurationUpdates: {
            EncryptionConfiguration: { EncryptionOption: 'SSE_KMS', KmsKey: 'alias/lab' },
            ExpectedBucketOwner: '123456789012',
          },
        },
      }),
    );
    const updated = (await get())?.Configuration;
    expect(updated?.EngineVersion?.SelectedEngineVersion).toBe('AUTO');
    expect(updated?.ResultConfiguration).toEqual({
      OutputLocation: 's3://results/echo/',
      EncryptionConfiguration: { EncryptionOption: 'SSE_KMS', KmsKey: 'alias/lab' },
      ExpectedBucketOwner: '123456789012',
    });
    expect(
      await nameOf(
        clients.athena.send(
          new CreateWorkGroupCommand({
            Name: 'old',
            Configuration: { EngineVersion: { SelectedEngineVersion: 'Athena engine version 1' } },
          }),
        ),
      ),
    ).toBe('InvalidRequestException');
  });

  test("a Firehose stream describes its Iceberg settings, and its error bucket's buffering and compression apart", async () => {
    const input = icebergStreamInput({
      name: 'echo',
      bucket: 'echo-bucket',
      role: 'firehose',
      errorBucket: 'errors',
    });
    input.IcebergDestinationConfiguration.BufferingHints = { SizeInMBs: 1, IntervalInSeconds: 60 };
    await clients.firehose.send(
      new CreateDeliveryStreamCommand({
        ...input,
        IcebergDestinationConfiguration: {
          ...input.IcebergDestinationConfiguration,
          S3Configuration: {
            ...input.IcebergDestinationConfiguration.S3Configuration,
            BufferingHints: { SizeInMBs: 5, IntervalInSeconds: 300 },
            CompressionFormat: 'GZIP',
          },
        },
      }),
    );
    const describe = async () =>
      (await clients.firehose.send(new DescribeDeliveryStreamCommand({ DeliveryStreamName: 'echo' })))
        .DeliveryStreamDescription;
    const created = await describe();
    const iceberg = created?.Destinations?.[0]?.IcebergDestinationDescription;
    expect(iceberg?.BufferingHints).toEqual({ SizeInMBs: 1, IntervalInSeconds: 60 });
    expect(iceberg?.S3DestinationDescription?.BufferingHints).toEqual({
      SizeInMBs: 5,
      IntervalInSeconds: 300,
    });
    expect(iceberg?.S3DestinationDescription?.CompressionFormat).toBe('GZIP');
    expect(created?.VersionId).toBe('1');

    // UpdateDestination merges what it is given; a stale version is refused.
    const update = (version: string, interval: number) =>
      clients.firehose.send(
        new UpdateDestinationCommand({
          DeliveryStreamName: 'echo',
          CurrentDeliveryStreamVersionId: version,
          DestinationId: created?.Destinations?.[0]?.DestinationId,
          IcebergDestinationUpdate: { BufferingHints: { SizeInMBs: 1, IntervalInSeconds: interval } },
        }),
      );
    await update('1', 120);
    const updated = await describe();
    expect(updated?.VersionId).toBe('2');
    const after = updated?.Destinations?.[0]?.IcebergDestinationDescription;
    expect(after?.BufferingHints).toEqual({ SizeInMBs: 1, IntervalInSeconds: 120 });
    expect(after?.S3DestinationDescription?.CompressionFormat).toBe('GZIP');
    expect(await nameOf(update('1', 180))).toBe('ConcurrentModificationException');
  });
});
