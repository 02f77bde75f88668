// Which AWS service a request is for and which wire protocol it speaks, read the way AWS's front ends read it:
// the SigV4 credential scope's service (every SDK signs for the service's signing name: `iam`, `sns`, `states`,
// `monitoring`…), then the request's own shape — `smithy-protocol: rpc-v2-cbor`, `X-Amz-Target` with an awsJson
// content type, a form-encoded POST with `Action` (awsQuery), otherwise REST (S3's XML when signed for `s3`).
// Used to answer a request no local service serves in the protocol its client can read.
import { scopeServiceOf } from './authz/sigv4';
import { cborTarget } from './cbor-protocol';
import { queryForm } from './query-protocol';
import type { LocalRequest } from './protocol';

export type RequestProtocol =
  'awsJson1_0' | 'awsJson1_1' | 'awsQuery' | 'rpcv2Cbor' | 'restJson1' | 'restXml';

export interface RequestShape {
  readonly protocol: RequestProtocol;
  /** The SigV4 scope's service (the signing name), when the request is signed. */
  readonly signingName?: string;
  /** The operation, where the protocol names it (target, Action, CBOR path). */
  readonly operation?: string;
}

export function requestShape(request: LocalRequest): RequestShape {
  const signingName = scopeServiceOf(request);
  const signed = signingName ? { signingName } : {};
  const cbor = cborTarget(request);
  if (cbor) return { protocol: 'rpcv2Cbor', operation: cbor.operation, ...signed };
  const target = request.headers['x-amz-target'];
  if (target !== undefined) {
    const text = Array.isArray(target) ? (target[0] ?? '') : target;
    const type = String(request.headers['content-type'] ?? '');
    return {
      protocol: type.includes('x-amz-json-1.0') ? 'awsJson1_0' : 'awsJson1_1',
      operation: text.slice(text.indexOf('.') + 1),
      ...signed,
    };
  }
  const form = queryForm(request);
  if (form) return { protocol: 'awsQuery', operation: form.get('Action') ?? '', ...signed };
  return { protocol: !signingName || signingName === 's3' ? 'restXml' : 'restJson1', ...signed };
}
