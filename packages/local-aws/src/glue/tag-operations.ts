// Glue's tag operations (GetTags, TagResource, UntagResource) on the default catalog's databases and tables. Apart
// from the database and table handlers because they name their resource by ARN, not by CatalogId and name, and
// never reach the S3 Tables catalogs or Lake Formation.
import { withoutTags, withTags } from '../tags';
import { glueError, type LocalGlueCatalog } from './catalog';
import type { GlueOperations } from './operation';

type TagOperations = Pick<GlueOperations, 'GetTags' | 'TagResource' | 'UntagResource'>;

/** Glue refuses bad tags (too many, too long) with InvalidInputException; CreateDatabase's Tags too. */
export const tagRefusal = (message: string) => glueError.invalid(message);

export function tagOperations(catalog: LocalGlueCatalog): TagOperations {
  /** A Glue resource ARN (`database/<name>`, `table/<db>/<name>`) in the default catalog: its tags' owner. */
  const tagged = (arn: string) => {
    const match = /^arn:aws[a-z-]*:glue:[^:]*:[^:]*:(database|table)\/([^/]+)(?:\/([^/]+))?$/.exec(arn);
    if (!match || (match[1] === 'table') !== (match[3] !== undefined))
      throw glueError.notFound(
        `Resource ${arn} not found: the local Glue keeps tags of databases (arn:aws:glue:<region>:<account>:database/<name>) and tables (…:table/<database>/<name>) of the default catalog.`,
      );
    return match[1] === 'database'
      ? {
          tags: () => catalog.getDatabase(match[2]).Tags,
          set: (tags: Record<string, string>) => catalog.setDatabaseTags(match[2] as string, tags),
        }
      : {
          tags: () => catalog.getTable(match[2], match[3]).Tags,
          set: (tags: Record<string, string>) =>
            catalog.setTableTags(match[2] as string, match[3] as string, tags),
        };
  };
  return {
    GetTags: async (input) => ({ Tags: tagged(input.ResourceArn as string).tags() ?? {} }),
    TagResource: async (input) => {
      const resource = tagged(input.ResourceArn as string);
      resource.set(withTags(resource.tags(), input.TagsToAdd ?? {}, tagRefusal));
      return {};
    },
    UntagResource: async (input) => {
      const resource = tagged(input.ResourceArn as string);
      resource.set(withoutTags(resource.tags(), input.TagsToRemove ?? []));
      return {};
    },
  };
}
