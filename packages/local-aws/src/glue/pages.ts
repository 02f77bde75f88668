// Glue's list pages (MaxResults and an opaque NextToken) and GetTables' name Expression: the list handlers of
// databases, tables and table versions share them, so they live apart from any one of those.
import { glueError } from './catalog';

/** Glue's list pages: MaxResults (the model allows 1-100 for these), NextToken an opaque offset. */
export function page<T>(
  items: T[],
  input: { MaxResults?: number | null; NextToken?: string | null },
  max = 100,
) {
  const start = input.NextToken ? decodeToken(input.NextToken) : 0;
  const size = input.MaxResults ?? max;
  const slice = items.slice(start, start + size);
  return { slice, ...(start + size < items.length ? { NextToken: encodeToken(start + size) } : {}) };
}
const encodeToken = (offset: number) => Buffer.from(`glue-offset:${offset}`).toString('base64');
function decodeToken(token: string): number {
  const match = /^glue-offset:(\d+)$/.exec(Buffer.from(token, 'base64').toString('utf8'));
  if (!match)
    throw glueError.invalid(
      `Invalid NextToken ${JSON.stringify(token)}: pass the token the previous page returned.`,
    );
  return Number(match[1]);
}

/** GetTables' Expression: "a regular expression pattern", matched against the whole name. */
export function nameFilter(expression: string | null | undefined): (name: string) => boolean {
  if (!expression) return () => true;
  let pattern: RegExp;
  try {
    pattern = new RegExp(`^(?:${expression})$`, 'i');
  } catch {
    throw glueError.invalid(`Expression ${JSON.stringify(expression)} is not a valid regular expression.`);
  }
  return (name) => pattern.test(name);
}
