// REST commit requirements (the spec's TableRequirement): each is checked against the latest metadata inside the
// commit attempt, so the check and the publish see the same version; one unmet requirement refuses the whole commit.
import type { TableMetadata, TableRequirement } from '../contract';
import { CommitRequirementFailedError, UnsupportedUpdateError } from '../errors';

function failed(
  table: string,
  what: string,
  expected: unknown,
  actual: unknown,
): CommitRequirementFailedError {
  return new CommitRequirementFailedError(
    `Requirement failed for ${table}: ${what} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}. ` +
      'Reload the table and retry the commit on its latest metadata.',
    { value: { expected, actual } },
  );
}

export function checkRequirements(
  base: TableMetadata,
  requirements: readonly TableRequirement[],
  table: string,
): void {
  for (const requirement of requirements) {
    switch (requirement.type) {
      case 'assert-create':
        // The table exists (this is a commit to it), so a create-only requirement cannot hold.
        throw failed(table, 'the table', 'not to exist', 'existing');
      case 'assert-table-uuid':
        if (base['table-uuid'] !== requirement.uuid)
          throw failed(table, 'table-uuid', requirement.uuid, base['table-uuid']);
        break;
      case 'assert-ref-snapshot-id': {
        const actual = base.refs[requirement.ref]?.['snapshot-id'] ?? null;
        if (actual !== (requirement['snapshot-id'] ?? null))
          throw failed(table, `ref ${requirement.ref}`, requirement['snapshot-id'] ?? null, actual);
        break;
      }
      case 'assert-last-assigned-field-id':
        if (base['last-column-id'] !== requirement['last-assigned-field-id'])
          throw failed(
            table,
            'last-assigned-field-id',
            requirement['last-assigned-field-id'],
            base['last-column-id'],
          );
        break;
      case 'assert-current-schema-id':
        if (base['current-schema-id'] !== requirement['current-schema-id'])
          throw failed(
            table,
            'current-schema-id',
            requirement['current-schema-id'],
            base['current-schema-id'],
          );
        break;
      case 'assert-last-assigned-partition-id':
        if (base['last-partition-id'] !== requirement['last-assigned-partition-id'])
          throw failed(
            table,
            'last-assigned-partition-id',
            requirement['last-assigned-partition-id'],
            base['last-partition-id'],
          );
        break;
      case 'assert-default-spec-id':
        if (base['default-spec-id'] !== requirement['default-spec-id'])
          throw failed(table, 'default-spec-id', requirement['default-spec-id'], base['default-spec-id']);
        break;
      case 'assert-default-sort-order-id':
        if (base['default-sort-order-id'] !== requirement['default-sort-order-id'])
          throw failed(
            table,
            'default-sort-order-id',
            requirement['default-sort-order-id'],
            base['default-sort-order-id'],
          );
        break;
      default:
        throw new UnsupportedUpdateError(
          `Unknown requirement type ${JSON.stringify((requirement as { type?: unknown }).type)}.`,
          { value: requirement },
        );
    }
  }
}
