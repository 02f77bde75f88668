// Trino's URL functions (https://trino.io/docs/current/functions/url.html), computed by the engine's own scalar
// functions as java.net.URI reads a URL (url-parse.ts).
import { BIGINT, VARCHAR } from '../analyzer/types';
import { udfName, type EngineUdf, type FunctionFamily, type Translator } from './function';
import { parseUrl, urlDecode, urlEncode, urlParameter, type UrlParts } from './url-parse';

/** url_extract_<part>(url): a part of the URL as java.net.URI reads it (NULL where it cannot). */
export const URL_PART: EngineUdf = {
  name: udfName('url_part'),
  params: ['VARCHAR', 'VARCHAR'],
  result: 'VARCHAR',
  compute: (url: string, part: string) => {
    const value = parseUrl(url)?.[part as Exclude<keyof UrlParts, 'rawQuery'>];
    return value === undefined || value === null ? null : String(value);
  },
};

const part =
  (name: string): Translator =>
  ([url]) =>
    `${URL_PART.name}(${url}, '${name}')`;

export const URL_FUNCTIONS: FunctionFamily = {
  url_decode: { returns: VARCHAR, udf: { params: ['VARCHAR'], result: 'VARCHAR', compute: urlDecode } },
  url_encode: { returns: VARCHAR, udf: { params: ['VARCHAR'], result: 'VARCHAR', compute: urlEncode } },
  url_extract_fragment: { sql: part('fragment') },
  url_extract_host: { returns: VARCHAR, sql: part('host') },
  url_extract_parameter: {
    returns: VARCHAR,
    udf: { params: ['VARCHAR', 'VARCHAR'], result: 'VARCHAR', compute: urlParameter },
  },
  url_extract_path: { returns: VARCHAR, sql: part('path') },
  url_extract_port: { returns: BIGINT, sql: ([url]) => `CAST(${URL_PART.name}(${url}, 'port') AS BIGINT)` },
  url_extract_protocol: { returns: VARCHAR, sql: part('protocol') },
  url_extract_query: { returns: VARCHAR, sql: part('query') },
};
