import { describe, expect, test } from '@jest/globals';
import { addColumnsChange, renameColumnChange } from './metadata-changes';
import { newTableMetadata, currentSchema } from '../metadata/table-metadata';
import { FLOW_TABLE } from '../../test/table/testing';
import { assertWrittenSchemaStillValid } from './schema-validation';

describe('re-validating written files against a concurrently changed schema', () => {
  const base = newTableMetadata('file:///t', FLOW_TABLE, 't');
  const written = currentSchema(base);

  test('added and renamed columns keep the written files valid', () => {
    const evolved = renameColumnChange(
      addColumnsChange(base, [{ name: 'label', type: 'string' }]),
      'bytes',
      'n',
      't',
    );
    expect(() => assertWrittenSchemaStillValid(written, evolved, 't')).not.toThrow();
  });

  test('a dropped or retyped column is a commit conflict naming the column', () => {
    const dropped = {
      ...base,
      schemas: [{ ...written, 'schema-id': 1, fields: written.fields.slice(1) }],
      'current-schema-id': 1,
    };
    expect(() => assertWrittenSchemaStillValid(written, dropped, 'table t')).toThrow(
      expect.objectContaining({
        name: 'CommitConflictError',
        message: expect.stringContaining("column 'src_addr' was dropped"),
      }),
    );
  });
});
