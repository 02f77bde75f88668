// REST commits on a real table: requirements judged on the latest metadata, updates in order, idempotent
// additions, and a refused commit that leaves the table exactly as it was.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { TableCommit, TableMetadata } from '../contract';
import {
  CommitRequirementFailedError,
  InvalidMetadataLocationError,
  InvalidUpdateError,
  UnsupportedUpdateError,
} from '../errors';
import { flowRows, flowTable, testWarehouse, type TestWarehouse } from '../../test/table/testing';

let env: TestWarehouse;
beforeAll(async () => {
  env = await testWarehouse();
});
afterAll(async () => env.dispose());

const byDstPort = (meta: TableMetadata) => ({
  action: 'add-sort-order' as const,
  'sort-order': {
    'order-id': 7,
    fields: [
      {
        'source-id': meta.schemas[0]!.fields.find((f) => f.name === 'dst_port')!.id,
        transform: 'identity',
        direction: 'asc',
        'null-order': 'nulls-first',
      },
    ],
  },
});

async function location(table: string): Promise<string> {
  return (await env.warehouse.getTable('lab', 'network', table)).metadataLocation;
}

describe('commitTable (Iceberg REST commit semantics)', () => {
  test('a commit publishes a new metadata location; a retried sort-order addition reuses the order', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'rest_sort');
    const meta = await table.metadata();
    const before = await location('rest_sort');
    const commit: TableCommit = {
      requirements: [{ type: 'assert-default-sort-order-id', 'default-sort-order-id': 1 }],
      updates: [byDstPort(meta), { action: 'set-default-sort-order', 'sort-order-id': -1 }],
    };
    // Act
    const first = await env.warehouse.commitTable('lab', 'network', 'rest_sort', commit);
    const retried = await env.warehouse.commitTable('lab', 'network', 'rest_sort', {
      requirements: [],
      updates: commit.updates,
    });
    // Assess
    expect(first.metadataLocation).not.toBe(before);
    expect(first.metadataLocation).toBe(
      (await env.warehouse.getTable('lab', 'network', 'rest_sort')).metadataLocation.replace(/v3/, 'v2'),
    );
    expect(retried.metadataLocation).toBe(await location('rest_sort'));
    expect(first.metadata['default-sort-order-id']).toBe(2);
    expect(retried.metadata['sort-orders'].map((o) => o['order-id'])).toEqual([0, 1, 2]);
    expect(retried.metadata['format-version']).toBe(2);
  });

  test("a snapshot may name only the table's own files: another table's manifest list is refused, nothing changes", async () => {
    // Prepare: a table with data the writer of another table has no right to, and that other table.
    const secret = await flowTable(env.warehouse, 'rest_secret');
    await secret.append({ rows: flowRows(4) });
    const stolen = (await secret.metadata()).snapshots.at(-1)!;
    const mine = await flowTable(env.warehouse, 'rest_mine');
    const meta = await mine.metadata();
    const before = await location('rest_mine');
    const addSnapshot = (manifestList: string): TableCommit => ({
      requirements: [],
      updates: [
        {
          action: 'add-snapshot',
          snapshot: {
            ...stolen,
            'snapshot-id': 4242,
            'sequence-number': meta['last-sequence-number'] + 1,
            'manifest-list': manifestList,
          },
        },
      ],
    });
    // Act + Assess: the secret table's manifest list, and any file on the machine.
    for (const list of [stolen['manifest-list'], 'file:///etc/passwd'])
      await expect(
        env.warehouse.commitTable('lab', 'network', 'rest_mine', addSnapshot(list)),
      ).rejects.toBeInstanceOf(InvalidMetadataLocationError);
    expect(await location('rest_mine')).toBe(before);
  });

  test('a stale requirement refuses the whole commit and changes nothing', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'rest_stale');
    await table.append({ rows: flowRows(3) });
    const head = (await table.metadata())['current-snapshot-id'] as number;
    await table.append({ rows: flowRows(2) });
    const before = await location('rest_stale');
    // Act
    const refused = env.warehouse.commitTable('lab', 'network', 'rest_stale', {
      requirements: [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': head }],
      updates: [{ action: 'set-properties', updates: { owner: 'lab' } }],
    });
    // Assess
    await expect(refused).rejects.toBeInstanceOf(CommitRequirementFailedError);
    expect(await location('rest_stale')).toBe(before);
    expect((await table.metadata()).properties['owner']).toBeUndefined();
  });

  test('updates apply in order and all-or-nothing: a refused update after a valid one commits neither', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'rest_order');
    await table.append({ rows: flowRows(3) });
    const meta = await table.metadata();
    const head = meta['current-snapshot-id'] as number;
    const before = await location('rest_order');
    // Act
    const refused = (action: TableCommit['updates'][number]) =>
      env.warehouse.commitTable('lab', 'network', 'rest_order', {
        requirements: [],
        updates: [
          { action: 'set-snapshot-ref', 'ref-name': 'audit', type: 'tag', 'snapshot-id': head },
          action,
        ],
      });
    // Assess
    await expect(refused({ action: 'upgrade-format-version', 'format-version': 3 })).rejects.toBeInstanceOf(
      UnsupportedUpdateError,
    );
    await expect(
      refused({
        action: 'set-location',
        location: 'file:///elsewhere',
      } as unknown as TableCommit['updates'][number]),
    ).rejects.toBeInstanceOf(UnsupportedUpdateError);
    await expect(refused({ action: 'set-current-schema', 'schema-id': 42 })).rejects.toBeInstanceOf(
      InvalidUpdateError,
    );
    expect(await location('rest_order')).toBe(before);
    expect((await table.metadata()).refs['audit']).toBeUndefined();
    // ...and the same tag in a valid commit, then removed: refs follow the updates in order.
    const tagged = await env.warehouse.commitTable('lab', 'network', 'rest_order', {
      requirements: [{ type: 'assert-table-uuid', uuid: meta['table-uuid'] }],
      updates: [
        {
          action: 'set-snapshot-ref',
          'ref-name': 'audit',
          type: 'tag',
          'snapshot-id': head,
          'max-ref-age-ms': 86_400_000,
        },
        { action: 'set-properties', updates: { owner: 'lab' } },
      ],
    });
    expect(tagged.metadata.refs['audit']).toEqual({
      'snapshot-id': head,
      type: 'tag',
      'max-ref-age-ms': 86_400_000,
    });
    const untagged = await env.warehouse.commitTable('lab', 'network', 'rest_order', {
      requirements: [],
      updates: [{ action: 'remove-snapshot-ref', 'ref-name': 'audit' }],
    });
    expect(untagged.metadata.refs['audit']).toBeUndefined();
    expect(untagged.metadata.properties['owner']).toBe('lab');
  });

  test('an added schema equal to an existing one is reused; a new one gets the next id', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'rest_schema');
    const meta = await table.metadata();
    const current = meta.schemas[0]!;
    const widened = {
      type: 'struct' as const,
      fields: [
        ...current.fields,
        { id: meta['last-column-id'] + 1, name: 'note', type: 'string' as const, required: false },
      ],
    };
    // Act
    const same = await env.warehouse.commitTable('lab', 'network', 'rest_schema', {
      requirements: [{ type: 'assert-current-schema-id', 'current-schema-id': 0 }],
      updates: [
        { action: 'add-schema', schema: { type: 'struct', fields: current.fields } },
        { action: 'set-current-schema', 'schema-id': -1 },
      ],
    });
    const added = await env.warehouse.commitTable('lab', 'network', 'rest_schema', {
      requirements: [
        { type: 'assert-last-assigned-field-id', 'last-assigned-field-id': meta['last-column-id'] },
      ],
      updates: [
        { action: 'add-schema', schema: widened },
        { action: 'set-current-schema', 'schema-id': -1 },
      ],
    });
    // Assess
    expect(same.metadata.schemas).toHaveLength(1);
    expect(added.metadata['current-schema-id']).toBe(1);
    expect(added.metadata['last-column-id']).toBe(meta['last-column-id'] + 1);
  });
});
