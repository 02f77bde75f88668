// awsQuery replies, as STS (the awsQuery service the endpoint speaks besides CloudWatch's query protocol) writes
// them: an XML document (AWS STS API Reference, "Common Errors" for the error document), whether STS refuses a
// request, the authorization step does, or the endpoint fails. The error document is query-protocol.ts's.
import { randomUUID } from 'node:crypto';
import { AwsServiceError } from './errors';
import type { LocalReply } from './protocol';
import { queryError } from './query-protocol';
import { xmlText } from './xml';

export const STS_NAMESPACE = 'https://sts.amazonaws.com/doc/2011-06-15/';

export const xmlTag = (name: string, value: string | number) =>
  `<${name}>${xmlText(String(value))}</${name}>`;

export function xmlReply(status: number, body: string, requestId?: string): LocalReply {
  return {
    status,
    raw: { headers: { 'content-type': 'text/xml' }, body },
    ...(requestId ? { requestId } : {}),
  };
}

/** `<ErrorResponse><Error><Type>Sender</Type><Code>…</Code><Message>…</Message></Error><RequestId>…` */
export function awsQueryError(status: number, code: string, message: string): LocalReply {
  const requestId = randomUUID();
  const { body } = queryError(
    new AwsServiceError(message, { type: code, status: status }),
    STS_NAMESPACE,
    code,
    requestId,
  );
  return xmlReply(status, body, requestId);
}

/** `<ActionResponse><ActionResult>…</ActionResult><ResponseMetadata><RequestId>…` of a served STS action. */
export function stsResponse(action: string, result: string): LocalReply {
  const requestId = randomUUID();
  return xmlReply(
    200,
    `<${action}Response xmlns="${STS_NAMESPACE}"><${action}Result>${result}</${action}Result>` +
      `<ResponseMetadata>${xmlTag('RequestId', requestId)}</ResponseMetadata></${action}Response>`,
    requestId,
  );
}
