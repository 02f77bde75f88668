// A service's API as the endpoint serves it: its vendored model (models/<service>.json) and the errors its
// protocol answers bad input with. Every service module validates through `checkInput` before its handler runs,
// so a handler only ever sees input that satisfies the model (and is typed as the SDK's input type on the wire:
// `Wire<…Input>`). A new service plugs in by adding its model file (packages/local-aws/tools/derive-aws-models.ts) and one
// `serviceApi(...)` call naming its error conventions.
import { readFileSync } from 'node:fs';
import type { AwsServiceError } from '../errors';
import { LocalAwsError } from '../errors';
import type { CompactModel, CompactShape } from './types';
import { validateInput, type Violation } from './validate';

export interface ServiceApi {
  readonly model: CompactModel;
  /** The answer to input that breaks a constraint of the model (the message lists every violation). */
  invalid(message: string): AwsServiceError;
  /** The answer to input that is not of the model's types (a string where a list goes, a body that is not JSON). */
  malformed(message: string): AwsServiceError;
}

/** A service as the endpoint serves it: its API and the operations of its model it serves. */
export interface ServedService {
  name: string;
  api: ServiceApi;
  served: readonly string[];
}

/** A model file that is missing or not a compact model. */
export class ServiceModelError extends LocalAwsError {
  override name = 'ServiceModelError';
}

const models = new Map<string, CompactModel>();

/** The vendored compact model of a service (`models/<service>.json`), read once. */
export function loadModel(service: string): CompactModel {
  let model = models.get(service);
  if (!model) {
    const file = new URL(`../../models/${service}.json`, import.meta.url);
    try {
      model = JSON.parse(readFileSync(file, 'utf8')) as CompactModel;
    } catch (error) {
      throw new ServiceModelError(
        `No usable model for ${service} at models/${service}.json: derive it with pnpm models:derive.`,
        { value: service, cause: error },
      );
    }
    models.set(service, model);
  }
  return model;
}

/**
 * `relax`: constraints of named shapes replaced for this endpoint (an option that lowers one of AWS's limits for
 * tests, such as Athena's minimum BytesScannedCutoffPerQuery); the model file is never changed.
 */
export function serviceApi(
  service: string,
  errors: { invalid(message: string): AwsServiceError; malformed(message: string): AwsServiceError },
  relax: Record<string, Partial<CompactShape>> = {},
): ServiceApi {
  const model = loadModel(service);
  if (Object.keys(relax).length === 0) return { model, ...errors };
  const shapes = { ...model.shapes };
  for (const [name, change] of Object.entries(relax)) {
    const shape = shapes[name];
    if (!shape)
      throw new ServiceModelError(`${service}'s model has no shape ${name} to relax.`, { value: name });
    shapes[name] = { ...shape, ...change } as CompactShape;
  }
  return { model: { ...model, shapes }, ...errors };
}

/**
 * Throws the service's error when `input` breaks the operation's input shape: malformed (wrong JSON types) first,
 * then every constraint violation in one message, as AWS's services report them.
 */
export function checkInput(
  api: ServiceApi,
  operation: string,
  input: unknown,
  /** Top-level members not checked here (restXml payloads, which their handlers parse). */
  skip?: ReadonlySet<string>,
): void {
  const spec = api.model.operations[operation];
  if (!spec) return;
  const violations = validateInput(api.model, spec.input, input, skip);
  if (violations.length === 0) return;
  throw errorFor(api, violations);
}

function errorFor(api: ServiceApi, violations: Violation[]): AwsServiceError {
  const malformed = violations.find((v) => v.kind === 'type');
  if (malformed) return api.malformed(malformed.message);
  const count = violations.length;
  return api.invalid(
    `${count} validation error${count === 1 ? '' : 's'} detected: ${violations.map((v) => v.message).join('; ')}`,
  );
}

/** The AWS SDK v3's input/output types as they travel in JSON: blobs as base64 text, timestamps as numbers/text. */
export type Wire<T> = T extends Uint8Array
  ? string
  : T extends Date
    ? number | string
    : T extends readonly (infer U)[]
      ? Wire<U>[]
      : T extends object
        ? { [K in keyof T]: Wire<T[K]> }
        : T;
