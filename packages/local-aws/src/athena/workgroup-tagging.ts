// Tags on Athena resources (ListTagsForResource, TagResource, UntagResource): the ARN a call names read as a
// workgroup, the only Athena resource the local endpoint keeps. Its own module because it reads resources by ARN,
// where the workgroup operations (workgroup-operations.ts) read them by name, and answers a missing one differently.
import { tagList, tagsFromList, withoutTags, withTags } from '../tags';
import { wireError } from '../model/wire-errors';
import type { AthenaContext, AthenaOperations } from './operation';
import { decodeToken, encodeToken } from './paging';
import { invalidRequest, type WorkGroupRecord, type WorkGroups } from './workgroups';

type TaggingHandlers = Pick<AthenaOperations, 'ListTagsForResource' | 'TagResource' | 'UntagResource'>;

/**
 * The workgroup a tagging call's ARN names (`arn:aws:athena:<region>:<account>:workgroup/<name>`); data catalogs and
 * capacity reservations, which Athena tags too, are not kept locally.
 */
function workgroupOfArn(arn: string): string {
  const match = /^arn:aws[a-z-]*:athena:[^:]*:[^:]*:workgroup\/(.+)$/.exec(arn);
  if (!match)
    throw wireError(
      'athena',
      'ResourceNotFoundException',
      `Resource ${arn} was not found: the local Athena keeps tags of workgroups (arn:aws:athena:<region>:<account>:workgroup/<name>).`,
      { fields: { ResourceName: arn } },
    );
  return match[1] as string;
}

/** The workgroup an ARN names; one that does not exist is ResourceNotFoundException, as Athena answers. */
function workgroupGroup(workgroups: WorkGroups, arn: string): WorkGroupRecord {
  const name = workgroupOfArn(arn);
  const group = workgroups.find(name);
  if (!group)
    throw wireError('athena', 'ResourceNotFoundException', `WorkGroup ${name} is not found.`, {
      fields: {
        ResourceName: arn,
      },
    });
  return group;
}

export function taggingHandlers({ workgroups }: AthenaContext): TaggingHandlers {
  return {
    async ListTagsForResource(input) {
      const group = workgroupGroup(workgroups, input.ResourceARN as string);
      const all = tagList(group.tags);
      const max = input.MaxResults ?? 100;
      const start = decodeToken(input.NextToken);
      return {
        Tags: all.slice(start, start + max),
        ...(start + max < all.length ? { NextToken: encodeToken(start + max) } : {}),
      };
    },
    async TagResource(input) {
      const group = workgroupGroup(workgroups, input.ResourceARN as string);
      workgroups.setTags(
        group.Name,
        withTags(group.tags, tagsFromList(input.Tags), (m) => invalidRequest(m)),
      );
      return {};
    },
    async UntagResource(input) {
      const group = workgroupGroup(workgroups, input.ResourceARN as string);
      workgroups.setTags(group.Name, withoutTags(group.tags, input.TagKeys ?? []));
      return {};
    },
  };
}
