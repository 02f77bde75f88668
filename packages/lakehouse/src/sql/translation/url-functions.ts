// Trino's URL functions (https://trino.io/docs/current/functions/url.html), computed by the engine's own scalar
// functions as java.net.URI reads a URL (execution/url.ts).
import type { Translator } from './call';
import { URL_DECODE, URL_ENCODE, URL_PARAMETER, URL_PART } from './engine-functions';

const part =
  (name: string): Translator =>
  ([url]) =>
    `${URL_PART}(${url}, '${name}')`;

export const URL_FUNCTIONS: Record<string, Translator> = {
  url_extract_protocol: part('protocol'),
  url_extract_host: part('host'),
  url_extract_port: ([url]) => `CAST(${URL_PART}(${url}, 'port') AS BIGINT)`,
  url_extract_path: part('path'),
  url_extract_query: part('query'),
  url_extract_fragment: part('fragment'),
  url_extract_parameter: ([url, name]) => `${URL_PARAMETER}(${url}, ${name})`,
  url_encode: ([value]) => `${URL_ENCODE}(${value})`,
  url_decode: ([value]) => `${URL_DECODE}(${value})`,
};
