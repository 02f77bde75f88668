import { describe, test, expect } from '@jest/globals';
import { deriveCompactModel, ModelDerivationError, type SmithyModel } from './derive';
import { validateInput } from '../src/model/validate';
import { samplePattern, breakPattern } from '../test/model/samples';
import type { Bounds } from '../src/model/types';

const source = {
  repository: 'example/models',
  commit: '0'.repeat(40),
  path: 'm.json',
  sha256: 'x',
  licence: 'Apache-2.0',
};

// A small Smithy JSON AST in the form AWS publishes: one restJson1 service, one operation, constraint traits on the
// target shapes and on a member.
const smithy: SmithyModel = {
  smithy: '2.0',
  shapes: {
    'example.svc#Svc': {
      type: 'service',
      version: '2024-01-01',
      traits: { 'aws.api#service': { sdkId: 'Example Svc' }, 'aws.protocols#restJson1': {} },
    },
    'example.svc#PutThing': {
      type: 'operation',
      input: { target: 'example.svc#PutThingRequest' },
      errors: [{ target: 'example.svc#BadRequestException' }],
      traits: {
        'smithy.api#http': { method: 'PUT', uri: '/things/{name}', code: 204 },
        'smithy.api#documentation': 'x',
      },
    },
    'example.svc#PutThingRequest': {
      type: 'structure',
      members: {
        name: {
          target: 'example.svc#Name',
          traits: { 'smithy.api#httpLabel': {}, 'smithy.api#required': {} },
        },
        size: { target: 'smithy.api#Integer', traits: { 'smithy.api#range': { min: 1, max: 10 } } },
        kind: { target: 'example.svc#Kind' },
        tags: { target: 'example.svc#Tags', traits: { 'smithy.api#length': { max: 2 } } },
      },
    },
    'example.svc#Name': {
      type: 'string',
      traits: { 'smithy.api#length': { min: 3, max: 8 }, 'smithy.api#pattern': '^[a-z]+$' },
    },
    'example.svc#Kind': {
      type: 'enum',
      members: { A: { target: 'smithy.api#Unit', traits: { 'smithy.api#enumValue': 'alpha' } } },
    },
    'example.svc#Tags': { type: 'list', member: { target: 'smithy.api#String' } },
    'example.svc#BadRequestException': {
      type: 'structure',
      members: {},
      traits: { 'smithy.api#error': 'client', 'smithy.api#httpError': 400 },
    },
  },
};

describe('deriveCompactModel', () => {
  test('keeps bindings, constraints and errors; drops documentation; names shapes locally', () => {
    // Act
    const model = deriveCompactModel(smithy, { source });
    // Assess
    expect(model).toMatchObject({
      service: 'example-svc',
      protocol: 'restJson1',
      targetPrefix: 'Svc',
      version: '2024-01-01',
    });
    expect(model.operations.PutThing).toEqual({
      http: { method: 'PUT', uri: '/things/{name}', code: 204 },
      input: 'PutThingRequest',
      errors: ['BadRequestException'],
      inputShapes: true,
    });
    expect(model.shapes.Name).toEqual({ type: 'string', length: { min: 3, max: 8 }, pattern: '^[a-z]+$' });
    expect(model.shapes.Kind).toEqual({ type: 'enum', values: ['alpha'] });
    expect(model.shapes.PutThingRequest).toMatchObject({
      members: {
        name: { target: 'Name', httpLabel: true, required: true },
        size: { range: { min: 1, max: 10 } },
      },
    });
    expect(JSON.stringify(model)).not.toContain('documentation');
  });

  test('the derived model refuses what breaks it, naming the member as AWS does', () => {
    const model = deriveCompactModel(smithy, { source });
    const messages = validateInput(model, 'PutThingRequest', {
      name: 'AB',
      size: 11,
      kind: 'beta',
      tags: ['a', 'b', 'c'],
    }).map((v) => v.message);
    expect(messages).toEqual([
      "Value 'AB' at 'name' failed to satisfy constraint: Member must have length greater than or equal to 3",
      "Value 'AB' at 'name' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[a-z]+$",
      "Value '11' at 'size' failed to satisfy constraint: Member must have value less than or equal to 10",
      "Value 'beta' at 'kind' failed to satisfy constraint: Member must satisfy enum value set: [alpha]",
      `Value '["a","b","c"]' at 'tags' failed to satisfy constraint: Member must have length less than or equal to 2`,
    ]);
    expect(validateInput(model, 'PutThingRequest', {}).map((v) => v.kind)).toEqual(['required']);
    expect(validateInput(model, 'PutThingRequest', { name: 'abc', size: '3' }).map((v) => v.kind)).toEqual([
      'type',
    ]);
    expect(validateInput(model, 'PutThingRequest', { name: 'abcd', size: 3, kind: 'alpha' })).toEqual([]);
  });

  test('a model without a service shape, or asking for an operation it lacks, is refused by name', () => {
    expect(() => deriveCompactModel({ smithy: '2.0', shapes: {} }, { source })).toThrow(ModelDerivationError);
    expect(() => deriveCompactModel(smithy, { source, inputShapesFor: ['Nope'] })).toThrow(
      /no operation Nope/,
    );
  });
});

describe('pattern samples', () => {
  test.each([
    ['^(arn:aws[-a-z0-9]*:[a-z0-9]+:[-a-z0-9]*:[0-9]{12}:bucket/[a-z0-9_-]{3,63})$', { min: 1 }],
    ['^arn:.*:iam::\\d{12}:role/[a-zA-Z_0-9+=,.@\\-_/]+$', { min: 1, max: 512 }],
    ['^(?!aws:)[\\p{L}\\p{Z}\\p{N}_.:\\/=+\\-@%]*$', { min: 1 }],
    ['^[a-zA-Z0-9._-]{1,128}$', {}],
  ] as [string, Bounds][])('%s: a sample matches and a breaker does not', (pattern, length) => {
    const regex = new RegExp(pattern, 'u');
    const sample = samplePattern(pattern, length) as string;
    expect(regex.test(sample)).toBe(true);
    expect(sample.length).toBeGreaterThanOrEqual(length.min ?? 0);
    expect(regex.test(breakPattern(pattern) as string)).toBe(false);
  });
});
