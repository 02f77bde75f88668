// The NextToken of Athena's paged lists (ListWorkGroups, ListQueryExecutions, ListTagsForResource, GetQueryResults):
// an offset into the list, opaque to the caller. Its own module so every paged handler reads and writes one format.
import { invalidRequest } from './workgroups';

export function encodeToken(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64');
}

export function decodeToken(token: string | undefined): number {
  if (!token) return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(token, 'base64').toString('utf8'));
  if (!match)
    throw invalidRequest(
      `Invalid NextToken ${JSON.stringify(token)}: pass the token from the previous response.`,
    );
  return Number(match[1]);
}
