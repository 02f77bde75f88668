// A CommitTableRequest body read at the edge: every requirement and update is an object of a known kind whose members
// have the types the Iceberg REST OpenAPI gives them (open-api/rest-catalog-open-api.yaml: TableRequirement,
// TableUpdate). A malformed body is the client's error (InvalidUpdateError, a 400), never a crash deep in the commit.
// Kinds the engine does not apply (set-location, statistics…) pass through and are refused by name when applied.
import { InvalidUpdateError } from '../errors';
import type { TableCommit, TableRequirement, TableUpdate } from '../contract';

type Kind = 'string' | 'number' | 'number|null' | 'object' | 'numbers' | 'strings' | 'string-map';

const REQUIREMENT_MEMBERS: Record<string, Record<string, Kind>> = {
  'assert-create': {},
  'assert-table-uuid': { uuid: 'string' },
  'assert-ref-snapshot-id': { ref: 'string', 'snapshot-id': 'number|null' },
  'assert-last-assigned-field-id': { 'last-assigned-field-id': 'number' },
  'assert-current-schema-id': { 'current-schema-id': 'number' },
  'assert-last-assigned-partition-id': { 'last-assigned-partition-id': 'number' },
  'assert-default-spec-id': { 'default-spec-id': 'number' },
  'assert-default-sort-order-id': { 'default-sort-order-id': 'number' },
};

const UPDATE_MEMBERS: Record<string, Record<string, Kind>> = {
  'assign-uuid': { uuid: 'string' },
  'upgrade-format-version': { 'format-version': 'number' },
  'add-schema': { schema: 'object' },
  'set-current-schema': { 'schema-id': 'number' },
  'add-spec': { spec: 'object' },
  'set-default-spec': { 'spec-id': 'number' },
  'add-sort-order': { 'sort-order': 'object' },
  'set-default-sort-order': { 'sort-order-id': 'number' },
  'add-snapshot': { snapshot: 'object' },
  'set-snapshot-ref': { 'ref-name': 'string', type: 'string', 'snapshot-id': 'number' },
  'remove-snapshot-ref': { 'ref-name': 'string' },
  'remove-snapshots': { 'snapshot-ids': 'numbers' },
  'set-properties': { updates: 'string-map' },
  'remove-properties': { removals: 'strings' },
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function hasKind(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'number|null':
      return value === null || (typeof value === 'number' && Number.isFinite(value));
    case 'object':
      return isObject(value);
    case 'numbers':
      return Array.isArray(value) && value.every((v) => typeof v === 'number' && Number.isFinite(v));
    case 'strings':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'string-map':
      return isObject(value) && Object.values(value).every((v) => typeof v === 'string');
  }
}

function checked<T>(
  list: unknown,
  what: 'requirement' | 'update',
  tag: 'type' | 'action',
  members: Record<string, Record<string, Kind>>,
): T[] {
  if (!Array.isArray(list))
    throw new InvalidUpdateError(`CommitTableRequest ${what}s must be a list.`, { value: list });
  return list.map((item: unknown, i) => {
    if (!isObject(item) || typeof item[tag] !== 'string')
      throw new InvalidUpdateError(`${what} #${i} must be an object with a string "${tag}".`, {
        value: item,
      });
    for (const [member, kind] of Object.entries(members[item[tag]] ?? {})) {
      if (!hasKind(item[member], kind))
        throw new InvalidUpdateError(
          `${what} #${i} (${item[tag]}): "${member}" must be ${kind.replace('|', ' or ').replace('string-map', 'an object of strings')}, got ${JSON.stringify(item[member]) ?? 'nothing'}.`,
          { value: item[member] },
        );
    }
    return item as T;
  });
}

/** The requirements and updates of a CommitTableRequest body, checked member by member. */
export function parseTableCommit(body: { requirements?: unknown; updates?: unknown }): TableCommit {
  return {
    requirements: checked<TableRequirement>(
      body.requirements ?? [],
      'requirement',
      'type',
      REQUIREMENT_MEMBERS,
    ),
    updates: checked<TableUpdate>(body.updates, 'update', 'action', UPDATE_MEMBERS),
  };
}
