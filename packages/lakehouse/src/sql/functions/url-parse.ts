// Trino's URL functions (https://trino.io/docs/current/functions/url.html) as Java's java.net.URI reads a URL,
// which Trino's UrlFunctions use: a URL Java cannot parse gives NULL; path, query and fragment are
// percent-decoded (URI.getPath/getQuery/getFragment); url_extract_parameter reads the raw query; url_encode and
// url_decode are Java's URLEncoder/URLDecoder (UTF-8, a space as `+`).

/** RFC 3986 appendix B's reading of a URI reference. */
const URI = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;
/** Characters java.net.URI refuses anywhere in a URI (outside `%XX` escapes). */
const ILLEGAL = /[\s"<>\\^`{|}]|%(?![0-9A-Fa-f]{2})/;

export interface UrlParts {
  protocol: string | null;
  host: string | null;
  port: number | null;
  path: string | null;
  query: string | null;
  rawQuery: string | null;
  fragment: string | null;
}

/** Percent-decoding as java.net.URI decodes a component (UTF-8; `+` stays `+`). */
function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The parts of a URL, or undefined where java.net.URI would refuse it. */
export function parseUrl(url: string): UrlParts | undefined {
  if (ILLEGAL.test(url)) return undefined;
  const m = URI.exec(url);
  if (!m) return undefined;
  const [, scheme, authority, path, query, fragment] = m;
  if (scheme !== undefined && !/^[A-Za-z][A-Za-z0-9+.-]*$/.test(scheme)) return undefined;
  let host: string | null = null;
  let port: number | null = null;
  if (authority !== undefined) {
    const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
    const hp = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostPort);
    if (!hp) return undefined;
    host = hp[1] ? (hp[1] as string) : null;
    port = hp[2] ? Number(hp[2]) : null;
  }
  return {
    protocol: scheme ?? null,
    host,
    port,
    path: path === undefined ? null : decode(path),
    query: query === undefined ? null : decode(query),
    rawQuery: query ?? null,
    fragment: fragment === undefined ? null : decode(fragment),
  };
}

/** url_extract_parameter: the first value of the named parameter in the raw query ('' without `=`). */
export function urlParameter(url: string, name: string): string | null {
  const query = parseUrl(url)?.rawQuery;
  if (query === null || query === undefined) return null;
  for (const pair of query.split('&')) {
    const [key, ...value] = pair.split('=');
    if (key === name) return value.length ? (value[0] as string) : '';
  }
  return null;
}

/** Java's URLEncoder.encode(value, UTF-8): letters, digits and `.-*_` kept, space as `+`, the rest `%XX`. */
export function urlEncode(value: string): string {
  return Array.from(new TextEncoder().encode(value), (byte) => {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9.\-*_]/.test(c)) return c;
    if (c === ' ') return '+';
    return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');
}

/** Java's URLDecoder.decode(value, UTF-8): `+` is a space, `%XX` a byte; a bad escape is an error. */
export function urlDecode(value: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const c = value[i] as string;
    if (c === '+') bytes.push(0x20);
    else if (c === '%') {
      const hex = value.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex))
        throw new Error(`URLDecoder: Illegal hex characters in escape (%) pattern - ${hex}`);
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...new TextEncoder().encode(c));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
