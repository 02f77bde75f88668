// CreateTable's `metadata.iceberg.schema` (S3 Tables' shape, checked against the model: every field has a name and
// a type) → the engine's column definitions.
import type { TableMetadata } from '@aws-sdk/client-s3tables';
import { isIcebergPrimitive } from '@loglake/lakehouse/iceberg';
import { type ColumnDefinition } from '@loglake/lakehouse';
import type { Wire } from '../model/api';
import { bad } from './context';

export function columnsFromMetadata(metadata: Wire<TableMetadata> | undefined): ColumnDefinition[] {
  const fields = metadata && 'iceberg' in metadata ? metadata.iceberg?.schema?.fields : undefined;
  if (fields === undefined) return [];
  const seen = new Set<string>();
  return fields.map((field) => {
    const name = field.name as string;
    const type = field.type as string;
    if (seen.has(name.toLowerCase())) throw bad(`Duplicate column name in schema: ${name}.`);
    seen.add(name.toLowerCase());
    if (!isIcebergPrimitive(type)) {
      throw bad(
        `Column ${name} has unsupported type ${JSON.stringify(type)}. Use an Iceberg primitive type: ` +
          'boolean, int, long, float, double, date, time, timestamp, timestamptz, string, uuid, binary or decimal(p,s).',
      );
    }
    return { name, type, required: field.required === true };
  });
}
