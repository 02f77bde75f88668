import { describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadModel } from './api';
import { errorStatus, MODELLED_SERVICES, wireError, type ModelledService } from './wire-errors';

const SRC = fileURLToPath(new URL('..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')
        ? [join(dir, e.name)]
        : [],
  );
}

/**
 * Every `wireError('<service>', '<Type>'` the endpoint's source writes (the names it can send), and the names of
 * the three senders that pass the type in a variable: each picks it from literals in its own file.
 */
function sentErrors(): { file: string; service: string; type: string }[] {
  const call = /wireError\(\s*(undefined|'([a-z0-9]+)'),\s*'([A-Za-z]+)'/g;
  const literal = sourceFiles(SRC).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(call)].map((m) => ({
      file: relative(SRC, file),
      service: m[2] ?? 'undefined',
      type: m[3] as string,
    })),
  );
  const picked = (file: string, services: string[], pattern: RegExp) =>
    [...readFileSync(join(SRC, file), 'utf8').matchAll(pattern)].flatMap((m) =>
      services.map((service) => ({ file, service, type: m[1] as string })),
    );
  const s3TablesTypes = /'((?:NotFound|Conflict|BadRequest|InternalServerError)Exception)'/g;
  const glueTypes = /'((?:EntityNotFound|AlreadyExists|InvalidInput|InternalService)Exception)'/g;
  return [
    ...literal,
    ...picked('engine-errors.ts', ['s3tables'], s3TablesTypes),
    ...picked('engine-errors.ts', ['glue'], glueTypes),
    ...picked('s3/bucket-configurations.ts', ['s3'], /notFound\(\s*'([A-Za-z]+)'/g),
    ...picked('unserved-services.ts', ['undefined'], /'(UnsupportedOperation(?:Exception)?)'/g),
  ];
}

describe('wire errors come from the service models', () => {
  test("every error name the endpoint sends is in that service's model (or AWS's common errors), with its status", () => {
    // Prepare
    const sent = sentErrors();
    expect(sent.length).toBeGreaterThan(85);

    for (const { service, type } of sent) {
      const modelled = (MODELLED_SERVICES as readonly string[]).includes(service)
        ? (service as ModelledService)
        : undefined;
      // Act
      const status = errorStatus(modelled, type);
      const shape = modelled ? loadModel(modelled).shapes[type] : undefined;

      // Assess: known, and where the model has it, the model's status (httpError, else Smithy's fault default)
      expect({ service, type, known: status !== undefined }).toEqual({ service, type, known: true });
      if (shape?.type === 'structure' && shape.error)
        expect(status).toBe(shape.httpError ?? (shape.error === 'server' ? 500 : 400));
    }
  });

  test("statuses are the models' own: httpError where given, else the fault's default", () => {
    // Assess: one of each kind
    expect(errorStatus('s3tables', 'ConflictException')).toBe(409); // @httpError(409)
    expect(errorStatus('cloudwatch', 'ResourceNotFound')).toBe(404); // @httpError(404)
    expect(errorStatus('firehose', 'ServiceUnavailableException')).toBe(503); // @httpError(503)
    expect(errorStatus('firehose', 'ResourceInUseException')).toBe(400); // client fault, no httpError
    expect(errorStatus('athena', 'InternalServerException')).toBe(500); // server fault, no httpError
    expect(errorStatus('s3', 'NoSuchKey')).toBe(404);
  });

  test('a name no model or table has fails loudly instead of answering a made-up status', () => {
    // Act / Assess
    expect(() => wireError('s3tables', 'NoSuchThingException', 'x')).toThrow(
      /s3tables has no error NoSuchThingException/,
    );
  });

  test('no handler writes a status by hand: AwsServiceError is built only by the wire-error factory and the auth front door', () => {
    // Prepare: the protocols' authorization refusals (authz/denials.ts) answer by protocol, not by service model,
    // and the awsQuery error writer (aws-query.ts) takes the status it is given.
    const allowed = new Set(['errors.ts', 'model/wire-errors.ts', 'authz/denials.ts', 'aws-query.ts']);

    // Act
    const writers = sourceFiles(SRC)
      .filter((f) => /new AwsServiceError\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f))
      .filter((f) => !allowed.has(f));

    // Assess
    expect(writers).toEqual([]);
  });
});
