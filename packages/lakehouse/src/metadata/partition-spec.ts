// Partition specs and sort orders: resolving caller definitions (by column name) to Iceberg's id-based form.
import type { PartitionFieldDefinition, Schema, SortFieldDefinition, TableMetadata } from '../contract';
import { InvalidTransformError } from '../errors';
import { fieldById, findField } from './schema';
import {
  defaultPartitionName,
  transformResultType,
  transformToString,
  validateTransform,
} from './transforms';

export type PartitionSpec = TableMetadata['partition-specs'][number];
export type PartitionField = PartitionSpec['fields'][number];
export type SortOrder = TableMetadata['sort-orders'][number];

/** First partition field id, as the spec prescribes. */
export const FIRST_PARTITION_FIELD_ID = 1000;

export function buildPartitionSpec(
  specId: number,
  schema: Schema,
  definitions: readonly PartitionFieldDefinition[],
  lastPartitionId: number,
  table: string,
): PartitionSpec {
  const names = new Set<string>();
  const fields = definitions.map((definition, index) => {
    const source = findField(schema, definition.sourceColumn, table);
    const parsed = validateTransform(definition.transform, source.type, source.name);
    const name = definition.name ?? defaultPartitionName(parsed, source.name);
    if (names.has(name.toLowerCase())) {
      throw new InvalidTransformError(
        `Partition field name '${name}' is used twice; give one of them a name.`,
        { value: name },
      );
    }
    names.add(name.toLowerCase());
    const clash = schema.fields.find((f) => f.name.toLowerCase() === name.toLowerCase());
    if (clash && !(parsed.kind === 'identity' && clash.id === source.id)) {
      throw new InvalidTransformError(
        `Partition field name '${name}' clashes with a column; name it differently.`,
        {
          value: name,
        },
      );
    }
    return {
      'source-id': source.id,
      'field-id': lastPartitionId + 1 + index,
      name,
      transform: transformToString(parsed),
    };
  });
  return { 'spec-id': specId, fields };
}

export function partitionFieldTypes(spec: PartitionSpec, schema: Schema): string[] {
  return spec.fields.map((field) => {
    const source = fieldById(schema, field['source-id']);
    if (!source) return 'int';
    return transformResultType(validateTransform(field.transform, source.type, source.name), source.type);
  });
}

export function buildSortOrder(
  orderId: number,
  schema: Schema,
  definitions: readonly SortFieldDefinition[],
  table: string,
): SortOrder {
  return {
    'order-id': orderId,
    fields: definitions.map((definition) => {
      const source = findField(schema, definition.sourceColumn, table);
      const transform = transformToString(
        validateTransform(definition.transform ?? 'identity', source.type, source.name),
      );
      if (definition.direction !== 'asc' && definition.direction !== 'desc') {
        throw new InvalidTransformError(
          `Sort direction '${String(definition.direction)}' must be 'asc' or 'desc'.`,
          {
            value: definition.direction,
          },
        );
      }
      if (definition.nullOrder !== 'nulls-first' && definition.nullOrder !== 'nulls-last') {
        throw new InvalidTransformError(
          `Null order '${String(definition.nullOrder)}' must be 'nulls-first' or 'nulls-last'.`,
          {
            value: definition.nullOrder,
          },
        );
      }
      return {
        'source-id': source.id,
        transform,
        direction: definition.direction,
        'null-order': definition.nullOrder,
      };
    }),
  };
}

/** The spec's unpartitioned spec and unsorted order. */
export const UNSORTED: SortOrder = { 'order-id': 0, fields: [] };
