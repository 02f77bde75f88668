// A minimal restJson1 route table: `METHOD /literal/{label}/...` patterns matched segment by segment, labels
// percent-decoded (the SDK encodes ARNs in labels, `/` included, so one label is always one segment).
export type RouteParams = Record<string, string>;

export interface Route<H> {
  method: string;
  segments: string[];
  handler: H;
  operation: string;
}

export function route<H>(operation: string, pattern: string, handler: H): Route<H> {
  const [method, path] = pattern.split(' ') as [string, string];
  return { method, segments: path.split('/').filter(Boolean), handler, operation };
}

export function matchRoute<H>(
  routes: Route<H>[],
  method: string,
  rawPath: string,
): { route: Route<H>; params: RouteParams } | undefined {
  const parts = rawPath.split('/').filter(Boolean);
  for (const candidate of routes) {
    if (candidate.method !== method || candidate.segments.length !== parts.length) continue;
    const params: RouteParams = {};
    let ok = true;
    candidate.segments.forEach((segment, index) => {
      const part = parts[index] as string;
      if (segment.startsWith('{')) params[segment.slice(1, -1)] = safeDecode(part);
      else if (segment !== part) ok = false;
    });
    if (ok) return { route: candidate, params };
  }
  return undefined;
}

/** True when the first path segment is one of the service's roots (used to claim a request). */
export function firstSegment(rawPath: string): string {
  return rawPath.split('/').filter(Boolean)[0] ?? '';
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
