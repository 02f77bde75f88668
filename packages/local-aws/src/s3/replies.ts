// How the local S3 writes its replies: an XML document (with its declaration), an empty reply with headers, the
// elements the documents are built of, and the MalformedXML refusal. Its own module so the bucket, object and
// multipart handlers and the bucket configurations write the same bytes the same way.
import { wireError } from '../model/wire-errors';
import type { LocalReply } from '../protocol';
import { xmlEscape } from '../xml';
import { canonicalUserId } from './buckets';

export const NS = 'http://s3.amazonaws.com/doc/2006-03-01/';

export const xml = (status: number, body: string, headers: Record<string, string> = {}): LocalReply => ({
  status,
  raw: {
    headers: { 'content-type': 'application/xml', ...headers },
    body: `<?xml version="1.0" encoding="UTF-8"?>\n${body}`,
  },
});

export const empty = (status: number, headers: Record<string, string> = {}): LocalReply => ({
  status,
  raw: { headers, body: '' },
});

/** `<name>value</name>`, escaped; nothing when the value is undefined. */
export const tag = (name: string, value: string | number | boolean | undefined) =>
  value === undefined ? '' : `<${name}>${xmlEscape(String(value))}</${name}>`;

export const iso = (date: Date) => date.toISOString();

/** The account's `<Owner>` element (and the multipart upload's `<Initiator>`, the same account). */
export const ownerElement = (accountId: string) => `<Owner>${tag('ID', canonicalUserId(accountId))}</Owner>`;
export const initiatorElement = (accountId: string) =>
  `<Initiator>${tag('ID', canonicalUserId(accountId))}</Initiator>`;

export const malformedXml = (detail: string) =>
  wireError(
    's3',
    'MalformedXML',
    `The XML you provided was not well-formed or did not validate against our published schema: ${detail}`,
  );
