// Resource tags, kept with the resource they label (a workgroup's, an alarm's, a stream's, a database's record) and
// gone with it. The rules every service here documents alike ("Tagging AWS resources", and each service's
// TagResource): at most 50 tags per resource, keys unique, the `aws:` prefix reserved for AWS; each service answers a
// broken rule with its own error, so it passes the error to use. Lengths and patterns are the models'.
import type { AwsServiceError } from './errors';

export type TagMap = Record<string, string>;

export const MAX_TAGS_PER_RESOURCE = 50;

/** `[{Key, Value}]` (Athena, CloudWatch, Firehose) → a map; a key given twice keeps its last value. */
export function tagsFromList(
  list: readonly { Key?: string | null; Value?: string | null }[] | null | undefined,
): TagMap {
  const tags: TagMap = {};
  for (const tag of list ?? []) if (tag?.Key != null) tags[tag.Key] = tag.Value ?? '';
  return tags;
}

export function tagList(tags: TagMap | undefined): { Key: string; Value: string }[] {
  return Object.entries(tags ?? {}).map(([Key, Value]) => ({ Key, Value }));
}

/** `current` with `added` put over it, refused (`refuse(message)`) when a rule above breaks. */
export function withTags(
  current: TagMap | undefined,
  added: TagMap,
  refuse: (message: string, rule: 'reserved' | 'limit') => AwsServiceError,
): TagMap {
  const reserved = Object.keys(added).filter((key) => key.toLowerCase().startsWith('aws:'));
  if (reserved.length > 0)
    throw refuse(`Tag keys starting with "aws:" are reserved for AWS: ${reserved.join(', ')}.`, 'reserved');
  const next = { ...(current ?? {}), ...added };
  if (Object.keys(next).length > MAX_TAGS_PER_RESOURCE)
    throw refuse(
      `A resource can have at most ${MAX_TAGS_PER_RESOURCE} tags; this would give it ${Object.keys(next).length}.`,
      'limit',
    );
  return next;
}

/** `current` without the keys (keys it does not have are ignored, as every service here does). */
export function withoutTags(current: TagMap | undefined, keys: readonly string[]): TagMap {
  const next = { ...(current ?? {}) };
  for (const key of keys) delete next[key];
  return next;
}
