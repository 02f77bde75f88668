// Athena's workgroup operations: create, get, update, delete and list. Its own module beside workgroups.ts (what a
// workgroup record holds and how a change applies to it): these are the handlers and the shapes they answer.
import type { AthenaContext, AthenaOperations } from './operation';
import { decodeToken, encodeToken } from './paging';
import { engineVersion } from './workgroups';

type WorkGroupHandlers = Pick<
  AthenaOperations,
  'CreateWorkGroup' | 'GetWorkGroup' | 'UpdateWorkGroup' | 'DeleteWorkGroup' | 'ListWorkGroups'
>;

export function workgroupHandlers({ workgroups }: AthenaContext): WorkGroupHandlers {
  return {
    async CreateWorkGroup(input) {
      workgroups.create(input);
      return {};
    },
    async GetWorkGroup(input) {
      const { tags: _tags, ...group } = workgroups.get(input.WorkGroup as string);
      return { WorkGroup: group };
    },
    async UpdateWorkGroup(input) {
      workgroups.update(input);
      return {};
    },
    async DeleteWorkGroup(input) {
      workgroups.delete(input.WorkGroup as string);
      return {};
    },
    async ListWorkGroups(input) {
      const max = input.MaxResults ?? 50;
      const start = decodeToken(input.NextToken);
      const all = workgroups.list();
      return {
        WorkGroups: all.slice(start, start + max).map((g) => ({
          Name: g.Name,
          State: g.State,
          ...(g.Description ? { Description: g.Description } : {}),
          CreationTime: g.CreationTime,
          EngineVersion: engineVersion(g.Configuration.EngineVersion?.SelectedEngineVersion ?? undefined),
        })),
        ...(start + max < all.length ? { NextToken: encodeToken(start + max) } : {}),
      };
    },
  };
}
