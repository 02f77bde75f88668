// Tags of Athena workgroups, Firehose streams and Glue databases through the AWS SDK v3 clients over loopback: given
// at creation and kept, listed, added, removed, gone with the resource; the 50-tag and `aws:` rules answered with
// each service's error; a resource that is not there answered as each service answers it. (CloudWatch's alarms:
// cloudwatch/protocols.test.ts; S3 Tables': s3tables/settings-ops.test.ts; S3 buckets': s3/configurations.test.ts.)
import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateWorkGroupCommand,
  DeleteWorkGroupCommand,
  GetWorkGroupCommand,
  ListTagsForResourceCommand,
  TagResourceCommand,
  UntagResourceCommand,
} from '@aws-sdk/client-athena';
import {
  CreateDeliveryStreamCommand,
  DeleteDeliveryStreamCommand,
  ListTagsForDeliveryStreamCommand,
  TagDeliveryStreamCommand,
  UntagDeliveryStreamCommand,
} from '@aws-sdk/client-firehose';
import {
  CreateDatabaseCommand,
  DeleteDatabaseCommand,
  GetDatabaseCommand,
  GetTagsCommand,
  GlueClient,
  TagResourceCommand as GlueTag,
  UntagResourceCommand as GlueUntag,
} from '@aws-sdk/client-glue';
import { startLocalEndpoint, type LocalEndpoint } from './server';
import { localClientConfig } from './client-config';
import { localClients, type LocalClients } from '../test/support/clients';
import { MemoryWarehouse } from '../test/support/memory-warehouse';
import { createFlowTable, icebergStreamInput } from '../test/support/lab-setup';

const fiftyOne = Array.from({ length: 51 }, (_, i) => ({ Key: `k${i}`, Value: 'v' }));
const nameOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'no error',
    (error: { name: string }) => error.name,
  );

describe('resource tags (Athena, Firehose, Glue) through the AWS SDK v3 clients', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let clients: LocalClients;
  let glue: GlueClient;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-tags-'));
    endpoint = await startLocalEndpoint({
      dataDir: dir,
      engine: { openWarehouse: async () => new MemoryWarehouse() },
    });
    clients = localClients(endpoint.url);
    glue = new GlueClient(localClientConfig(endpoint.url));
  });
  afterAll(async () => {
    clients.destroy();
    glue.destroy();
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('an Athena workgroup keeps the tags it was created with; tag, untag, refusals, gone with it', async () => {
    const ResourceARN = 'arn:aws:athena:us-east-1:123456789012:workgroup/tagged';
    await clients.athena.send(
      new CreateWorkGroupCommand({ Name: 'tagged', Tags: [{ Key: 'lab', Value: '01' }] }),
    );
    const tags = async () =>
      (await clients.athena.send(new ListTagsForResourceCommand({ ResourceARN }))).Tags;
    expect(await tags()).toEqual([{ Key: 'lab', Value: '01' }]);
    await clients.athena.send(
      new TagResourceCommand({ ResourceARN, Tags: [{ Key: 'owner', Value: 'data-eng' }] }),
    );
    await clients.athena.send(new UntagResourceCommand({ ResourceARN, TagKeys: ['lab'] }));
    expect(await tags()).toEqual([{ Key: 'owner', Value: 'data-eng' }]);
    // Tags are not part of the workgroup's description.
    const { WorkGroup } = await clients.athena.send(new GetWorkGroupCommand({ WorkGroup: 'tagged' }));
    expect(Object.keys(WorkGroup ?? {})).not.toContain('tags');
    expect(await nameOf(clients.athena.send(new TagResourceCommand({ ResourceARN, Tags: fiftyOne })))).toBe(
      'InvalidRequestException',
    );
    expect(
      await nameOf(
        clients.athena.send(new TagResourceCommand({ ResourceARN, Tags: [{ Key: 'aws:x', Value: 'v' }] })),
      ),
    ).toBe('InvalidRequestException');
    await clients.athena.send(new DeleteWorkGroupCommand({ WorkGroup: 'tagged' }));
    expect(await nameOf(clients.athena.send(new ListTagsForResourceCommand({ ResourceARN })))).toBe(
      'ResourceNotFoundException',
    );
  });

  test('a Firehose stream keeps its creation tags; tag, untag, the 50-tag limit, gone with it', async () => {
    await createFlowTable(clients.s3tables, 'tags-bucket', [{ name: 'srcaddr', type: 'string' }]);
    const input = icebergStreamInput({
      name: 'tagged',
      bucket: 'tags-bucket',
      role: 'firehose',
      errorBucket: 'errors',
    });
    await clients.firehose.send(
      new CreateDeliveryStreamCommand({ ...input, Tags: [{ Key: 'lab', Value: '01' }] }),
    );
    const tags = async () =>
      (await clients.firehose.send(new ListTagsForDeliveryStreamCommand({ DeliveryStreamName: 'tagged' })))
        .Tags;
    expect(await tags()).toEqual([{ Key: 'lab', Value: '01' }]);
    await clients.firehose.send(
      new TagDeliveryStreamCommand({
        DeliveryStreamName: 'tagged',
        Tags: [{ Key: 'owner', Value: 'data-eng' }],
      }),
    );
    await clients.firehose.send(
      new UntagDeliveryStreamCommand({ DeliveryStreamName: 'tagged', TagKeys: ['lab'] }),
    );
    expect(await tags()).toEqual([{ Key: 'owner', Value: 'data-eng' }]);
    expect(
      await nameOf(
        clients.firehose.send(
          new TagDeliveryStreamCommand({ DeliveryStreamName: 'tagged', Tags: fiftyOne.slice(0, 50) }),
        ),
      ),
    ).toBe('LimitExceededException');
    await clients.firehose.send(new DeleteDeliveryStreamCommand({ DeliveryStreamName: 'tagged' }));
    expect(await nameOf(tags())).toBe('ResourceNotFoundException');
  });

  test('a Glue database keeps its creation tags; TagResource, UntagResource, unknown resources', async () => {
    const ResourceArn = 'arn:aws:glue:us-east-1:123456789012:database/tagged_db';
    await glue.send(new CreateDatabaseCommand({ DatabaseInput: { Name: 'tagged_db' }, Tags: { lab: '01' } }));
    const tags = async () => (await glue.send(new GetTagsCommand({ ResourceArn }))).Tags;
    expect(await tags()).toEqual({ lab: '01' });
    await glue.send(new GlueTag({ ResourceArn, TagsToAdd: { owner: 'data-eng' } }));
    await glue.send(new GlueUntag({ ResourceArn, TagsToRemove: ['lab'] }));
    expect(await tags()).toEqual({ owner: 'data-eng' });
    expect(
      Object.keys((await glue.send(new GetDatabaseCommand({ Name: 'tagged_db' }))).Database ?? {}),
    ).not.toContain('Tags');
    expect(await nameOf(glue.send(new GlueTag({ ResourceArn, TagsToAdd: { 'aws:x': 'v' } })))).toBe(
      'InvalidInputException',
    );
    await glue.send(new DeleteDatabaseCommand({ Name: 'tagged_db' }));
    expect(await nameOf(tags())).toBe('EntityNotFoundException');
    expect(
      await nameOf(
        glue.send(new GetTagsCommand({ ResourceArn: 'arn:aws:glue:us-east-1:123456789012:job/nightly' })),
      ),
    ).toBe('EntityNotFoundException');
  });
});
