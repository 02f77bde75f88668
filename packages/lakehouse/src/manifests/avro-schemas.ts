// Avro schemas of manifests and manifest lists, with the spec's field names and ids. Int-keyed maps are
// arrays of key/value records (logicalType map) and every record has its own name: independent readers
// such as icebird cannot read Avro maps, enums, fixed or named-type references.
import { parseType } from '../metadata/types';

type AvroSchema = Record<string, unknown> | string | unknown[];

const optional = (type: AvroSchema) => ['null', type];

function intMap(name: string, keyId: number, valueId: number, valueType: string) {
  return {
    name,
    type: optional({
      type: 'array',
      logicalType: 'map',
      items: {
        type: 'record',
        name: `k${keyId}_v${valueId}`,
        fields: [
          { name: 'key', type: 'int', 'field-id': keyId },
          { name: 'value', type: valueType, 'field-id': valueId },
        ],
      },
    }),
    default: null,
  };
}

/** Avro type of a partition value of Iceberg type `type`. */
export function partitionAvroType(type: string): AvroSchema {
  const parsed = parseType(type);
  switch (parsed.kind) {
    case 'boolean':
    case 'int':
    case 'long':
    case 'float':
    case 'double':
    case 'string':
      return parsed.kind;
    case 'date':
      return { type: 'int', logicalType: 'date' };
    case 'time':
      return { type: 'long', logicalType: 'time-micros' };
    case 'timestamp':
      return { type: 'long', logicalType: 'timestamp-micros', 'adjust-to-utc': false };
    case 'timestamptz':
      return { type: 'long', logicalType: 'timestamp-micros', 'adjust-to-utc': true };
    case 'uuid':
      return { type: 'string', logicalType: 'uuid' };
    case 'binary':
      return 'bytes';
    case 'decimal':
      return { type: 'bytes', logicalType: 'decimal', precision: parsed.precision, scale: parsed.scale };
  }
}

export interface PartitionFieldType {
  name: string;
  fieldId: number;
  type: string;
}

export function manifestEntrySchema(partitionFields: readonly PartitionFieldType[]): Record<string, unknown> {
  return {
    type: 'record',
    name: 'manifest_entry',
    fields: [
      { name: 'status', type: 'int', 'field-id': 0 },
      { name: 'snapshot_id', type: optional('long'), default: null, 'field-id': 1 },
      { name: 'sequence_number', type: optional('long'), default: null, 'field-id': 3 },
      { name: 'file_sequence_number', type: optional('long'), default: null, 'field-id': 4 },
      {
        name: 'data_file',
        'field-id': 2,
        type: {
          type: 'record',
          name: 'r2',
          fields: [
            { name: 'content', type: 'int', 'field-id': 134 },
            { name: 'file_path', type: 'string', 'field-id': 100 },
            { name: 'file_format', type: 'string', 'field-id': 101 },
            {
              name: 'partition',
              'field-id': 102,
              type: {
                type: 'record',
                name: 'r102',
                fields: partitionFields.map((f) => ({
                  name: f.name,
                  type: optional(partitionAvroType(f.type)),
                  default: null,
                  'field-id': f.fieldId,
                })),
              },
            },
            { name: 'record_count', type: 'long', 'field-id': 103 },
            { name: 'file_size_in_bytes', type: 'long', 'field-id': 104 },
            { ...intMap('column_sizes', 117, 118, 'long'), 'field-id': 108 },
            { ...intMap('value_counts', 119, 120, 'long'), 'field-id': 109 },
            { ...intMap('null_value_counts', 121, 122, 'long'), 'field-id': 110 },
            { ...intMap('nan_value_counts', 138, 139, 'long'), 'field-id': 137 },
            { ...intMap('lower_bounds', 126, 127, 'bytes'), 'field-id': 125 },
            { ...intMap('upper_bounds', 129, 130, 'bytes'), 'field-id': 128 },
            { name: 'key_metadata', type: optional('bytes'), default: null, 'field-id': 131 },
            {
              name: 'split_offsets',
              type: optional({ type: 'array', items: 'long', 'element-id': 133 }),
              default: null,
              'field-id': 132,
            },
            {
              name: 'equality_ids',
              type: optional({ type: 'array', items: 'int', 'element-id': 136 }),
              default: null,
              'field-id': 135,
            },
            { name: 'sort_order_id', type: optional('int'), default: null, 'field-id': 140 },
            { name: 'referenced_data_file', type: optional('string'), default: null, 'field-id': 143 },
          ],
        },
      },
    ],
  };
}

export const MANIFEST_FILE_SCHEMA: Record<string, unknown> = {
  type: 'record',
  name: 'manifest_file',
  fields: [
    { name: 'manifest_path', type: 'string', 'field-id': 500 },
    { name: 'manifest_length', type: 'long', 'field-id': 501 },
    { name: 'partition_spec_id', type: 'int', 'field-id': 502 },
    { name: 'content', type: 'int', 'field-id': 517 },
    { name: 'sequence_number', type: 'long', 'field-id': 515 },
    { name: 'min_sequence_number', type: 'long', 'field-id': 516 },
    { name: 'added_snapshot_id', type: 'long', 'field-id': 503 },
    { name: 'added_files_count', type: 'int', 'field-id': 504 },
    { name: 'existing_files_count', type: 'int', 'field-id': 505 },
    { name: 'deleted_files_count', type: 'int', 'field-id': 506 },
    { name: 'added_rows_count', type: 'long', 'field-id': 512 },
    { name: 'existing_rows_count', type: 'long', 'field-id': 513 },
    { name: 'deleted_rows_count', type: 'long', 'field-id': 514 },
    {
      name: 'partitions',
      type: optional({
        type: 'array',
        'element-id': 508,
        items: {
          type: 'record',
          name: 'r508',
          fields: [
            { name: 'contains_null', type: 'boolean', 'field-id': 509 },
            { name: 'contains_nan', type: optional('boolean'), default: null, 'field-id': 518 },
            { name: 'lower_bound', type: optional('bytes'), default: null, 'field-id': 510 },
            { name: 'upper_bound', type: optional('bytes'), default: null, 'field-id': 511 },
          ],
        },
      }),
      default: null,
      'field-id': 507,
    },
    { name: 'key_metadata', type: optional('bytes'), default: null, 'field-id': 519 },
  ],
};
