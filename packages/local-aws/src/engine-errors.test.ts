import { describe, expect, test } from '@jest/globals';
import {
  CommitConflictError,
  InvalidNameError,
  NamespaceNotEmptyError,
  NoSuchTableError,
  SchemaMismatchError,
  TableAlreadyExistsError,
} from '@loglake/lakehouse';
import { glueErrorFor, s3TablesErrorFor } from './engine-errors';

describe('engine errors as S3 Tables and Glue answer them', () => {
  test('engine errors map by class to the service exception and its model status', () => {
    // Prepare
    const cases: [Error, string, number][] = [
      [new NoSuchTableError('no table t'), 'NotFoundException', 404],
      [new TableAlreadyExistsError('t exists'), 'ConflictException', 409],
      [new NamespaceNotEmptyError('ns has tables'), 'ConflictException', 409],
      [new CommitConflictError('lost the race'), 'ConflictException', 409],
      [new InvalidNameError('bad name'), 'BadRequestException', 400],
      [new SchemaMismatchError('no column x'), 'BadRequestException', 400],
    ];
    for (const [error, type, status] of cases) {
      // Act
      const answer = s3TablesErrorFor(error);

      // Assess
      expect([answer.type, answer.status, answer.message, answer.cause]).toEqual([
        type,
        status,
        error.message,
        error,
      ]);
    }
  });

  test('a bug (TypeError) or an unknown error is a 500, never a client error', () => {
    // Prepare: a JS TypeError, and an error whose name only looks like an engine error's
    const typeError = new TypeError("Cannot read properties of undefined (reading 'schema')");
    const lookalike = Object.assign(new Error('not the engine'), { name: 'NoSuchTableError' });

    // Act
    const answers = [typeError, lookalike, 'a string'].map((e) => s3TablesErrorFor(e));
    const glue = [typeError, lookalike].map((e) => glueErrorFor(e));

    // Assess
    for (const a of answers) expect([a.type, a.status]).toEqual(['InternalServerErrorException', 500]);
    for (const a of glue) expect([a.type, a.status]).toEqual(['InternalServiceException', 500]);
  });

  test('Glue answers the engine errors with its own exceptions', () => {
    // Act
    const answers = [
      new NoSuchTableError('t'),
      new TableAlreadyExistsError('t'),
      new NamespaceNotEmptyError('ns'),
    ].map((e) => glueErrorFor(e));

    // Assess
    expect(answers.map((a) => [a.type, a.status])).toEqual([
      ['EntityNotFoundException', 400],
      ['AlreadyExistsException', 400],
      ['InvalidInputException', 400],
    ]);
  });
});
