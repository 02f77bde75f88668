// How S3's model reads a request's input — labels, query and headers by the model's bindings, the payload member
// from the body (an XML document by its shape, a policy as its text), CopyObject's source header — and how S3
// answers the model's violations. Its own module: operationOf (service.ts) reads a request with it once, for the
// authorizer and the handler alike, and the handlers never read the request again.
import { AwsServiceError } from '../errors';
import { restInput } from '../model/rest';
import type { CompactModel, MemberRef } from '../model/types';
import { memberPath, validateInput, type Violation } from '../model/validate';
import { wireError } from '../model/wire-errors';
import { parseXmlDocument, readXml, XmlDocumentError } from '../model/xml';
import { badPercentEscape } from '../percent-encoding';
import type { LocalRequest } from '../protocol';
import { elementName } from './bucket-configurations';
import { s3Error } from './errors';
import { malformedXml } from './replies';

/** The member of an operation's input its body is (`httpPayload`): [name, model member]. */
export function payloadMember(model: CompactModel, operation: string): [string, MemberRef] | undefined {
  const spec = model.operations[operation];
  const shape = spec?.input ? model.shapes[spec.input] : undefined;
  return shape && shape.type === 'structure'
    ? Object.entries(shape.members).find(([, member]) => member.httpPayload)
    : undefined;
}

/**
 * The operation's input as S3's model binds it: labels, query and headers, and the payload member read from the
 * body (an XML document by the member's shape, a policy as its text). A document that is no XML is MalformedXML;
 * one that breaks the model is too (checkS3Input), as S3 validates documents against its schema.
 */
export function inputOf(
  model: CompactModel,
  operation: string,
  request: LocalRequest,
  labels: Record<string, string>,
  body: Buffer,
): Record<string, unknown> {
  const input = restInput(model, operation, request, labels, () => ({}));
  const payload = payloadMember(model, operation);
  if (payload && body.length > 0) {
    const [name, member] = payload;
    const target = model.shapes[member.target];
    if (target?.type === 'structure') input[name] = readDocument(model, member, name, body);
    else if (target?.type === 'string') input[name] = body.toString('utf8');
  }
  return input;
}

/** The model's violations of a reading's input, as S3 answers them (after the authorization step). */
export function checkS3Input(model: CompactModel, operation: string, input: Record<string, unknown>): void {
  const spec = model.operations[operation];
  const payload = payloadMember(model, operation);
  const violations = validateInput(model, spec?.input, input);
  if (violations.length > 0) throw refusal(violations, payload ? memberPath('', payload[0]) : undefined);
}

function readDocument(model: CompactModel, member: MemberRef, name: string, body: Buffer): unknown {
  let root;
  try {
    root = parseXmlDocument(body.toString('utf8'));
  } catch (error) {
    if (error instanceof XmlDocumentError) throw malformedXml(error.message);
    throw error;
  }
  const expected = elementName(model, member, name);
  if (root.localName !== expected)
    throw malformedXml(`the document's root element is ${root.localName}, not ${expected}.`);
  return readXml(model, member, root);
}

/**
 * The model's violations as S3 answers them: arguments (labels, query, headers) first, InvalidArgument; then a
 * required document that is not there, MissingRequestBodyError; then the document's own, MalformedXML.
 */
function refusal(violations: Violation[], payloadPath: string | undefined): AwsServiceError {
  const inDocument = (v: Violation) =>
    payloadPath !== undefined && (v.path === payloadPath || v.path.startsWith(`${payloadPath}.`));
  const list = (vs: Violation[]) =>
    `${vs.length} validation error${vs.length === 1 ? '' : 's'} detected: ${vs.map((v) => v.message).join('; ')}`;
  const argumentViolations = violations.filter((v) => !inDocument(v));
  if (argumentViolations.length > 0) return wireError('s3', 'InvalidArgument', list(argumentViolations));
  if (violations.some((v) => v.path === payloadPath && v.kind === 'required'))
    return wireError('s3', 'MissingRequestBodyError', 'Request Body is empty');
  return malformedXml(list(violations));
}

/**
 * CopyObject's source as the reading keeps it: `{ bucket, key }`, or the error S3 refuses an unreadable one with
 * (kept, not thrown: S3 answers it after the model's own checks).
 */
export function copySourceOf(header: string): { bucket: string; key: string } | AwsServiceError {
  try {
    return copySource(header);
  } catch (error) {
    if (!(error instanceof AwsServiceError)) throw error;
    return error;
  }
}

/** `x-amz-copy-source`: `/bucket/key` or `bucket/key`, URL-encoded (a `?versionId=` is ignored: no versions). */
function copySource(header: string): { bucket: string; key: string } {
  const [path = ''] = header.split('?');
  const bad = badPercentEscape(path);
  if (bad !== undefined)
    throw s3Error.invalidArgument(
      `Invalid copy source ${JSON.stringify(header)}: ${JSON.stringify(bad)} is no valid percent-encoding (URL-encode the key as UTF-8).`,
    );
  const decoded = decodeURIComponent(path).replace(/^\//, '');
  const slash = decoded.indexOf('/');
  if (slash <= 0 || slash === decoded.length - 1)
    throw s3Error.invalidArgument(`Invalid copy source ${JSON.stringify(header)}: use /<bucket>/<key>.`);
  return { bucket: decoded.slice(0, slash), key: decoded.slice(slash + 1) };
}
