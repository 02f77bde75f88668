// The REST spec's CreateTableRequest as the engine's CreateTableInput. Field ids the client chose are not kept: the
// spec lets the catalog assign fresh ids, so columns, partition fields and sort fields are carried by name.
// S3 Tables' endpoint does not take a location (the table bucket places every table) or a staged create.
import { isIcebergPrimitive, type Transform } from '@loglake/lakehouse/iceberg';
import { type CreateTableInput } from '@loglake/lakehouse';
import { badRequest, unsupported } from './errors';

interface RestField {
  id?: number;
  name?: unknown;
  type?: unknown;
  required?: unknown;
  doc?: unknown;
}

export function createTableInput(body: Record<string, unknown>): { name: string; input: CreateTableInput } {
  const name = body.name;
  if (typeof name !== 'string' || name.length === 0) throw badRequest('CreateTableRequest needs a name.');
  if (body['stage-create'] === true) throw unsupported('Staged table creation (stage-create)');
  if (body.location !== undefined)
    throw badRequest('location is not accepted: the table bucket places its tables.');
  const schema = body.schema as { type?: unknown; fields?: unknown } | undefined;
  if (!schema || !Array.isArray(schema.fields) || schema.fields.length === 0)
    throw badRequest('CreateTableRequest needs a struct schema with fields.');
  const byId = new Map<number, string>();
  const columns = (schema.fields as RestField[]).map((field, index) => {
    if (typeof field.name !== 'string') throw badRequest(`schema.fields[${index}] has no name.`);
    if (typeof field.type !== 'string' || !isIcebergPrimitive(field.type))
      throw badRequest(
        `Column ${field.name}: type ${JSON.stringify(field.type)} is not a supported primitive type.`,
      );
    if (typeof field.id === 'number') byId.set(field.id, field.name);
    return {
      name: field.name,
      type: field.type,
      required: field.required === true,
      ...(typeof field.doc === 'string' ? { doc: field.doc } : {}),
    };
  });
  const column = (sourceId: unknown, what: string): string => {
    const found = typeof sourceId === 'number' ? byId.get(sourceId) : undefined;
    if (!found)
      throw badRequest(
        `${what} names source-id ${JSON.stringify(sourceId)}, which the schema does not have.`,
      );
    return found;
  };
  const spec = body['partition-spec'] as { fields?: Record<string, unknown>[] } | undefined;
  const order = body['write-order'] as { fields?: Record<string, unknown>[] } | undefined;
  const properties = (body.properties ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(properties)) {
    if (typeof value !== 'string') throw badRequest(`Property ${key} must be a string.`);
    // Athena and Firehose read and write format version 2: every table stays there.
    if (key === 'format-version' && value !== '2')
      throw badRequest('Only format-version 2 is supported.', value);
  }
  return {
    name,
    input: {
      columns,
      partitionBy: (spec?.fields ?? []).map((f) => ({
        sourceColumn: column(f['source-id'], 'A partition field'),
        transform: String(f.transform) as Transform,
        ...(typeof f.name === 'string' ? { name: f.name } : {}),
      })),
      sortBy: (order?.fields ?? []).map((f) => ({
        sourceColumn: column(f['source-id'], 'A sort field'),
        transform: String(f.transform) as Transform,
        direction: f.direction as 'asc' | 'desc',
        nullOrder: f['null-order'] as 'nulls-first' | 'nulls-last',
      })),
      properties: Object.fromEntries(
        Object.entries(properties).filter(([key]) => key !== 'format-version'),
      ) as Record<string, string>,
    },
  };
}
