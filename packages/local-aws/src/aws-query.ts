// awsQuery replies, as STS (the one awsQuery service the endpoint speaks) writes them: an XML document (AWS STS API
// Reference, "Common Errors" for the error document), whether STS refuses a request, the authorization step does, or
// the endpoint fails.
import type { LocalReply } from './protocol';
import { xmlText } from './xml';

export const STS_NAMESPACE = 'https://sts.amazonaws.com/doc/2011-06-15/';

export const xmlTag = (name: string, value: string | number) =>
  `<${name}>${xmlText(String(value))}</${name}>`;

export function xmlReply(status: number, body: string): LocalReply {
  return { status, raw: { headers: { 'content-type': 'text/xml' }, body } };
}

/** `<ErrorResponse><Error><Type>Sender</Type><Code>…</Code><Message>…</Message></Error><RequestId>…` */
export function awsQueryError(status: number, code: string, message: string): LocalReply {
  return xmlReply(
    status,
    `<ErrorResponse xmlns="${STS_NAMESPACE}"><Error><Type>Sender</Type>${xmlTag('Code', code)}${xmlTag('Message', message)}</Error>` +
      `${xmlTag('RequestId', globalThis.crypto.randomUUID())}</ErrorResponse>`,
  );
}
