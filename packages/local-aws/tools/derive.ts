// Smithy JSON AST (AWS's published service models) → the compact model the endpoint validates against
// (types.ts). Keeps every operation's binding and errors, and the shapes reachable from the inputs of the
// operations asked for; drops documentation, examples, endpoint rules and output shapes.
import type {
  Bounds,
  CompactModel,
  CompactOperation,
  CompactShape,
  MemberRef,
  ModelSource,
  Protocol,
} from '../src/model/types';
import { LocalAwsError } from '../src/errors';

interface SmithyRef {
  target: string;
  traits?: Record<string, unknown>;
}
interface SmithyShape {
  type: string;
  members?: Record<string, SmithyRef>;
  member?: SmithyRef;
  key?: SmithyRef;
  value?: SmithyRef;
  traits?: Record<string, unknown>;
  input?: { target: string };
  output?: { target: string };
  errors?: { target: string }[];
  version?: string;
}
export interface SmithyModel {
  smithy: string;
  shapes: Record<string, SmithyShape>;
}

/** A model that cannot be derived (no service shape, an unknown protocol or shape type). */
export class ModelDerivationError extends LocalAwsError {
  override name = 'ModelDerivationError';
}

const PROTOCOLS: Record<string, Protocol> = {
  'aws.protocols#restJson1': 'restJson1',
  'aws.protocols#awsJson1_1': 'awsJson1_1',
  'aws.protocols#restXml': 'restXml',
  'aws.protocols#awsJson1_0': 'awsJson1_0',
  'aws.protocols#awsQuery': 'awsQuery',
  'smithy.protocols#rpcv2Cbor': 'rpcv2Cbor',
};
const SCALARS = new Set([
  'string',
  'boolean',
  'byte',
  'short',
  'integer',
  'long',
  'float',
  'double',
  'bigInteger',
  'bigDecimal',
  'timestamp',
  'blob',
  'document',
]);

export interface DeriveOptions {
  source: ModelSource;
  /** Operations whose input shapes are kept; undefined = all of them. */
  inputShapesFor?: string[];
  /** Operations whose output shapes are kept ('all', or a list); undefined = none. */
  outputShapesFor?: string[] | 'all';
}

export function deriveCompactModel(model: SmithyModel, options: DeriveOptions): CompactModel {
  const entries = Object.entries(model.shapes);
  const service = entries.find(([, shape]) => shape.type === 'service');
  if (!service)
    throw new ModelDerivationError('The model has no service shape.', { value: options.source.path });
  const [serviceId, serviceShape] = service;
  const namespace = serviceId.split('#')[0] as string;
  const traits = serviceShape.traits ?? {};
  const protocolTraits = Object.keys(traits).filter((t) => t in PROTOCOLS);
  const protocolTrait = protocolTraits[0];
  if (!protocolTrait)
    throw new ModelDerivationError(`The service ${serviceId} has no protocol the endpoint speaks.`, {
      value: serviceId,
    });
  const sdkId = String((traits['aws.api#service'] as { sdkId?: string } | undefined)?.sdkId ?? serviceId);
  const local = (id: string) => (id.startsWith(`${namespace}#`) ? id.slice(namespace.length + 1) : id);

  const shapes: Record<string, CompactShape> = {};
  const include = (id: string): void => {
    const name = local(id);
    if (name in shapes || id === 'smithy.api#Unit') return;
    const shape = id.startsWith('smithy.api#') ? preludeShape(id) : model.shapes[id];
    if (!shape) throw new ModelDerivationError(`Shape ${id} is referenced but not defined.`, { value: id });
    const compact = compactShape(shape, local);
    shapes[name] = compact;
    for (const ref of refsOf(shape)) include(ref.target);
  };

  const operations: Record<string, CompactOperation> = {};
  const wanted = options.inputShapesFor ? new Set(options.inputShapesFor) : undefined;
  const outputsFor = options.outputShapesFor;
  const keepOutput = (name: string) =>
    outputsFor === 'all' || (outputsFor !== undefined && outputsFor.includes(name));
  for (const [id, shape] of entries
    .filter(([, s]) => s.type === 'operation')
    .sort(([a], [b]) => a.localeCompare(b))) {
    const name = local(id);
    const http = shape.traits?.['smithy.api#http'] as
      { method: string; uri: string; code?: number } | undefined;
    const input = shape.input && shape.input.target !== 'smithy.api#Unit' ? shape.input.target : undefined;
    const output =
      shape.output && shape.output.target !== 'smithy.api#Unit' ? shape.output.target : undefined;
    const keep = !wanted || wanted.has(name);
    if (input && keep) include(input);
    const keepOut = keepOutput(name);
    if (output && keepOut) include(output);
    const errors = (shape.errors ?? []).map((e) => e.target);
    for (const error of errors) {
      const errorShape = model.shapes[error];
      if (errorShape) shapes[local(error)] ??= errorShapeOf(errorShape);
    }
    operations[name] = {
      ...(http ? { http: { method: http.method, uri: http.uri, code: http.code ?? 200 } } : {}),
      ...(input ? { input: local(input) } : {}),
      ...(output ? { output: local(output) } : {}),
      errors: errors.map(local),
      inputShapes: keep,
      ...(keepOut ? { outputShapes: true as const } : {}),
    };
  }
  for (const name of [...(wanted ?? []), ...(Array.isArray(outputsFor) ? outputsFor : [])]) {
    if (!(name in operations))
      throw new ModelDerivationError(`The model has no operation ${name}.`, { value: name });
  }
  const protocols = protocolTraits.map((t) => PROTOCOLS[t] as Protocol);
  const xmlNamespace = (traits['smithy.api#xmlNamespace'] as { uri?: string } | undefined)?.uri;
  return {
    service: sdkId.toLowerCase().replace(/ /g, '-'),
    sdkId,
    version: String(serviceShape.version ?? ''),
    protocol: PROTOCOLS[protocolTrait] as Protocol,
    ...(protocols.length > 1 ? { protocols } : {}),
    ...(xmlNamespace ? { xmlNamespace } : {}),
    targetPrefix: local(serviceId),
    source: options.source,
    operations,
    shapes: Object.fromEntries(Object.entries(shapes).sort(([a], [b]) => a.localeCompare(b))),
  };
}

function refsOf(shape: SmithyShape): SmithyRef[] {
  if (shape.type === 'enum' || shape.type === 'intEnum') return [];
  return [...Object.values(shape.members ?? {}), shape.member, shape.key, shape.value].filter(
    (ref): ref is SmithyRef => ref !== undefined,
  );
}

function preludeShape(id: string): SmithyShape {
  const base = id.slice('smithy.api#'.length).replace(/^Primitive/, '');
  const type = base.charAt(0).toLowerCase() + base.slice(1);
  if (!SCALARS.has(type)) throw new ModelDerivationError(`Unknown prelude shape ${id}.`, { value: id });
  return { type };
}

function errorShapeOf(shape: SmithyShape): CompactShape {
  const traits = shape.traits ?? {};
  const queryError = traits['aws.protocols#awsQueryError'] as
    { code: string; httpResponseCode: number } | undefined;
  return {
    type: 'structure',
    members: {},
    error: traits['smithy.api#error'] as 'client' | 'server',
    ...(typeof traits['smithy.api#httpError'] === 'number'
      ? { httpError: traits['smithy.api#httpError'] }
      : {}),
    ...(queryError
      ? { queryError: { code: queryError.code, httpResponseCode: queryError.httpResponseCode } }
      : {}),
  };
}

function compactShape(shape: SmithyShape, local: (id: string) => string): CompactShape {
  const traits = shape.traits ?? {};
  const ref = (r: SmithyRef): MemberRef => memberRef(r, local);
  switch (shape.type) {
    case 'structure':
    case 'union':
      return {
        type: shape.type,
        members: Object.fromEntries(Object.entries(shape.members ?? {}).map(([n, r]) => [n, ref(r)])),
        ...(traits['smithy.api#error'] ? { error: traits['smithy.api#error'] as 'client' | 'server' } : {}),
        ...(typeof traits['smithy.api#xmlName'] === 'string'
          ? { xmlName: traits['smithy.api#xmlName'] }
          : {}),
      };
    case 'list':
    case 'set':
      return { type: 'list', member: ref(shape.member as SmithyRef), ...bounds('length', traits) };
    case 'map':
      return {
        type: 'map',
        key: ref(shape.key as SmithyRef),
        value: ref(shape.value as SmithyRef),
        ...bounds('length', traits),
      };
    case 'enum':
      return { type: 'enum', values: enumValues(shape, (name) => name) };
    case 'intEnum':
      return { type: 'intEnum', values: enumValues(shape, () => 0) };
    default: {
      if (!SCALARS.has(shape.type))
        throw new ModelDerivationError(`Unknown shape type ${shape.type}.`, { value: shape.type });
      const legacyEnum = traits['smithy.api#enum'] as { value: string }[] | undefined;
      return {
        type: shape.type as 'string',
        ...bounds('length', traits),
        ...bounds('range', traits),
        ...(typeof traits['smithy.api#pattern'] === 'string'
          ? { pattern: traits['smithy.api#pattern'] }
          : {}),
        ...(legacyEnum ? { enum: legacyEnum.map((e) => e.value) } : {}),
        ...(typeof traits['smithy.api#timestampFormat'] === 'string'
          ? { timestampFormat: traits['smithy.api#timestampFormat'] }
          : {}),
        ...(traits['smithy.api#streaming'] ? { streaming: true as const } : {}),
      };
    }
  }
}

function enumValues<T extends string | number>(shape: SmithyShape, fallback: (name: string) => T): T[] {
  return Object.entries(shape.members ?? {}).map(([name, member]) => {
    const value = member.traits?.['smithy.api#enumValue'];
    return (value ?? fallback(name)) as T;
  });
}

function bounds(
  trait: 'length' | 'range',
  traits: Record<string, unknown>,
): { length?: Bounds; range?: Bounds } {
  const value = traits[`smithy.api#${trait}`] as Bounds | undefined;
  if (!value) return {};
  const out: Bounds = {};
  if (typeof value.min === 'number') out.min = value.min;
  if (typeof value.max === 'number') out.max = value.max;
  return { [trait]: out };
}

function memberRef(ref: SmithyRef, local: (id: string) => string): MemberRef {
  const t = ref.traits ?? {};
  const out: MemberRef = { target: local(ref.target) };
  if ('smithy.api#required' in t) out.required = true;
  Object.assign(out, bounds('length', t), bounds('range', t));
  if (typeof t['smithy.api#pattern'] === 'string') out.pattern = t['smithy.api#pattern'];
  if ('smithy.api#httpLabel' in t) out.httpLabel = true;
  if (typeof t['smithy.api#httpQuery'] === 'string') out.httpQuery = t['smithy.api#httpQuery'];
  if (typeof t['smithy.api#httpHeader'] === 'string') out.httpHeader = t['smithy.api#httpHeader'];
  if ('smithy.api#httpPayload' in t) out.httpPayload = true;
  if ('smithy.api#httpQueryParams' in t) out.httpQueryParams = true;
  if (typeof t['smithy.api#httpPrefixHeaders'] === 'string')
    out.httpPrefixHeaders = t['smithy.api#httpPrefixHeaders'];
  if (typeof t['smithy.api#jsonName'] === 'string') out.jsonName = t['smithy.api#jsonName'];
  if (typeof t['smithy.api#timestampFormat'] === 'string')
    out.timestampFormat = t['smithy.api#timestampFormat'];
  if (typeof t['smithy.api#xmlName'] === 'string') out.xmlName = t['smithy.api#xmlName'];
  if ('smithy.api#xmlFlattened' in t) out.xmlFlattened = true;
  if ('smithy.api#xmlAttribute' in t) out.xmlAttribute = true;
  const ns = t['smithy.api#xmlNamespace'] as { uri: string; prefix?: string } | undefined;
  if (ns) out.xmlNamespace = { uri: ns.uri, ...(ns.prefix ? { prefix: ns.prefix } : {}) };
  return out;
}
