// CreateTable's `metadata.iceberg.schema` (S3 Tables' shape) → the engine's column definitions.
import { isIcebergPrimitive, type ColumnDefinition } from '@loglake/lakehouse';
import { AwsServiceError } from '../errors';

function bad(message: string): AwsServiceError {
  return new AwsServiceError('BadRequestException', 400, message);
}

export function columnsFromMetadata(metadata: unknown): ColumnDefinition[] {
  if (metadata === undefined || metadata === null) return [];
  const iceberg = (metadata as { iceberg?: { schema?: { fields?: unknown } } }).iceberg;
  const fields = iceberg?.schema?.fields;
  if (fields === undefined) return [];
  if (!Array.isArray(fields))
    throw bad('metadata.iceberg.schema.fields must be a list of {name, type, required}.');
  const seen = new Set<string>();
  return fields.map((field: unknown, index) => {
    const { name, type, required } = (field ?? {}) as { name?: unknown; type?: unknown; required?: unknown };
    if (typeof name !== 'string' || name.length === 0)
      throw bad(`metadata.iceberg.schema.fields[${index}] has no name.`);
    if (seen.has(name.toLowerCase())) throw bad(`Duplicate column name in schema: ${name}.`);
    seen.add(name.toLowerCase());
    if (typeof type !== 'string' || !isIcebergPrimitive(type)) {
      throw bad(
        `Column ${name} has unsupported type ${JSON.stringify(type)}. Use an Iceberg primitive type: ` +
          'boolean, int, long, float, double, date, time, timestamp, timestamptz, string, uuid, binary or decimal(p,s).',
      );
    }
    return { name, type, required: required === true };
  });
}
