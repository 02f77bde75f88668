// The compact form of an AWS service's Smithy model that the endpoint validates requests against: the
// operations (HTTP bindings, input shape, errors) and the shapes their inputs reach, with the constraint traits
// (required, length, range, pattern, enum) and the binding traits (httpLabel, httpQuery, httpHeader, httpPayload,
// jsonName) kept and documentation dropped. Derived from AWS's published models by `pnpm models:derive`
// (tools/derive.ts); the files live in packages/local-aws/models/, each with its source recorded.

export type Protocol = 'restJson1' | 'awsJson1_1' | 'awsJson1_0' | 'restXml' | 'awsQuery' | 'rpcv2Cbor';

export interface ModelSource {
  /** The public repository the Smithy model was read from, and the commit. */
  repository: string;
  commit: string;
  path: string;
  /** sha256 of the model file as read. */
  sha256: string;
  licence: string;
}

export interface Bounds {
  min?: number;
  max?: number;
}

/** Constraint and binding traits, as they apply to a member (the member's own traits over its target's). */
export interface MemberRef {
  target: string;
  required?: true;
  length?: Bounds;
  range?: Bounds;
  pattern?: string;
  httpLabel?: true;
  httpQuery?: string;
  httpHeader?: string;
  httpPayload?: true;
  httpQueryParams?: true;
  httpPrefixHeaders?: string;
  jsonName?: string;
  timestampFormat?: string;
  /** restXml / awsQuery: the element (or attribute) name, when it is not the member's name. */
  xmlName?: string;
  /** restXml: a list or map written as repeated elements without a wrapper. */
  xmlFlattened?: true;
  /** restXml: written as an attribute of the parent element. */
  xmlAttribute?: true;
  /** restXml: the namespace declared on the member's element (S3's `xsi` on Grantee). */
  xmlNamespace?: { uri: string; prefix?: string };
}

export type ScalarType =
  | 'string'
  | 'boolean'
  | 'byte'
  | 'short'
  | 'integer'
  | 'long'
  | 'float'
  | 'double'
  | 'bigInteger'
  | 'bigDecimal'
  | 'timestamp'
  | 'blob'
  | 'document';

export type CompactShape =
  | {
      type: 'structure' | 'union';
      members: Record<string, MemberRef>;
      error?: 'client' | 'server';
      httpError?: number;
      /** restXml: the element name of the structure as a document root (S3's `VersioningConfiguration`). */
      xmlName?: string;
      /** awsQuery (and query-compatible) services: the error's code in that protocol (`@awsQueryError`). */
      queryError?: { code: string; httpResponseCode: number };
    }
  | { type: 'list'; member: MemberRef; length?: Bounds }
  | { type: 'map'; key: MemberRef; value: MemberRef; length?: Bounds }
  | { type: 'enum'; values: string[] }
  | { type: 'intEnum'; values: number[] }
  | {
      type: ScalarType;
      length?: Bounds;
      range?: Bounds;
      pattern?: string;
      /** Smithy 1 string enums (`@enum`), kept as the values' list. */
      enum?: string[];
      timestampFormat?: string;
      streaming?: true;
    };

export interface CompactOperation {
  /** restJson1 / restXml: the HTTP binding. */
  http?: { method: string; uri: string; code: number };
  /** Undefined = `smithy.api#Unit` (no input members). */
  input?: string;
  /** Undefined = `smithy.api#Unit` (no output members). */
  output?: string;
  errors: string[];
  /** False when the input's shapes were left out (operations the endpoint does not serve, in large models). */
  inputShapes: boolean;
  /**
   * True when the output's shapes are kept: services the endpoint also answers in a protocol whose replies are
   * typed by the model (awsQuery XML, CBOR: timestamps, blobs, lists and maps are written by their shapes).
   */
  outputShapes?: true;
}

export interface CompactModel {
  /** The model's sdkId, lowercased: `s3tables`, `firehose`, `athena`, `glue`, `s3`. */
  service: string;
  sdkId: string;
  version: string;
  protocol: Protocol;
  /** Every protocol the service's model lists (CloudWatch: awsJson1_0, awsQuery and rpcv2Cbor), `protocol` first. */
  protocols?: Protocol[];
  /** restXml, awsQuery: the XML namespace of the service's documents (`@xmlNamespace`). */
  xmlNamespace?: string;
  /** awsJson1_1: `X-Amz-Target` is `<targetPrefix>.<Operation>` (the service shape's name). */
  targetPrefix: string;
  source: ModelSource;
  operations: Record<string, CompactOperation>;
  shapes: Record<string, CompactShape>;
}
