// Percent-encoding as the caller wrote it (RFC 3986 §2.1): a `%` must be followed by two hex digits, and the bytes
// the escapes stand for must be UTF-8 (every AWS SDK encodes UTF-8). What breaks either is the caller's mistake — S3
// answers it InvalidURI ("Couldn't parse the specified URI", Amazon S3 API Reference, "Error responses"), the other
// services their validation error — and is refused before anything reads it. Lenient decoding (URLSearchParams,
// which turns `%zz` into itself and bad UTF-8 into U+FFFD) would let one layer read one value and another a second.

const ESCAPES = /(?:%[0-9A-Fa-f]{2})+|%/g;

/** The first escape of `text` that decodes to nothing (`%zz`, `%E0%A4%A`), or undefined when all of it decodes. */
export function badPercentEscape(text: string): string | undefined {
  if (!text.includes('%')) return undefined;
  for (const match of text.matchAll(ESCAPES)) {
    const run = match[0];
    if (run === '%') return text.slice(match.index, match.index + 3);
    try {
      decodeURIComponent(run);
    } catch {
      // The run's bytes are not UTF-8: name it with what follows (`%E0%A4%A` ends in a broken escape).
      return text.slice(match.index, match.index + run.length + 2);
    }
  }
  return undefined;
}

/** A percent-decoded segment, or undefined when it is not valid percent-encoding (never a thrown URIError). */
export function decodeSegment(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Where a request's target (path or query string) is not valid percent-encoding: the part and the bad escape. */
export function badTargetEscape(
  path: string,
  rawQuery: string,
): { where: 'path' | 'query string'; escape: string } | undefined {
  const inPath = badPercentEscape(path);
  if (inPath !== undefined) return { where: 'path', escape: inPath };
  // `+` is a space in a query string; it never makes an escape bad.
  const inQuery = badPercentEscape(rawQuery);
  return inQuery !== undefined ? { where: 'query string', escape: inQuery } : undefined;
}
