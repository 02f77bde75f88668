// One lister per kind of resource the stacks create. Each lists by the lab's name prefix and returns what is left.
import { ListWorkGroupsCommand } from '@aws-sdk/client-athena';
import { DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { DescribeLogGroupsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { ListDeliveryStreamsCommand } from '@aws-sdk/client-firehose';
import { GetCatalogCommand, GetCatalogsCommand, GetDatabasesCommand } from '@aws-sdk/client-glue';
import { ListPoliciesCommand, ListRolesCommand } from '@aws-sdk/client-iam';
import { ListFunctionsCommand } from '@aws-sdk/client-lambda';
import { ListBucketsCommand } from '@aws-sdk/client-s3';
import { ListNamespacesCommand, ListTableBucketsCommand, ListTablesCommand } from '@aws-sdk/client-s3tables';
import { ListSchedulesCommand } from '@aws-sdk/client-scheduler';
import { ListStateMachinesCommand } from '@aws-sdk/client-sfn';
import { ListTopicsCommand } from '@aws-sdk/client-sns';
import type { TeardownClients } from './clients';
import { lakeFormationPermissions } from './lake-formation';
import { paginate } from './paginate';
import { belongsToLab, type LabScope } from './scope';

export interface Leftover {
  readonly kind: string;
  readonly name: string;
  readonly detail?: string;
}

export interface KindLister {
  readonly kind: string;
  list(clients: TeardownClients, scope: LabScope): Promise<Leftover[]>;
}

const notFound = (e: unknown) =>
  ['EntityNotFoundException', 'NotFoundException'].includes((e as { name?: string }).name ?? '');

/** Table buckets, and inside each leftover bucket its namespaces and tables. */
const tableBuckets: KindLister = {
  kind: 'table bucket',
  async list(c, scope) {
    const buckets = await paginate(async (t) => {
      const r = await c.s3tables.send(
        new ListTableBucketsCommand({ prefix: scope.namePrefix, continuationToken: t }),
      );
      return { items: r.tableBuckets ?? [], next: r.continuationToken };
    });
    const out: Leftover[] = [];
    for (const b of buckets.filter((b) => belongsToLab(b.name, scope))) {
      out.push({ kind: 'table bucket', name: b.name ?? '?', detail: b.arn });
      const namespaces = await paginate(async (t) => {
        const r = await c.s3tables.send(
          new ListNamespacesCommand({ tableBucketARN: b.arn, continuationToken: t }),
        );
        return { items: r.namespaces ?? [], next: r.continuationToken };
      });
      for (const ns of namespaces)
        out.push({ kind: 'namespace', name: `${b.name}/${(ns.namespace ?? []).join('.')}` });
      const tables = await paginate(async (t) => {
        const r = await c.s3tables.send(
          new ListTablesCommand({ tableBucketARN: b.arn, continuationToken: t }),
        );
        return { items: r.tables ?? [], next: r.continuationToken };
      });
      for (const table of tables)
        out.push({ kind: 'table', name: `${b.name}/${(table.namespace ?? []).join('.')}.${table.name}` });
    }
    return out;
  },
};

const streams: KindLister = {
  kind: 'delivery stream',
  async list(c, scope) {
    const names = await paginate(async (t) => {
      const r = await c.firehose.send(
        new ListDeliveryStreamsCommand({ ExclusiveStartDeliveryStreamName: t, Limit: 100 }),
      );
      const items = r.DeliveryStreamNames ?? [];
      return { items, next: r.HasMoreDeliveryStreams ? items.at(-1) : undefined };
    });
    return names.filter((n) => belongsToLab(n, scope)).map((name) => ({ kind: 'delivery stream', name }));
  },
};

/**
 * The lab's child catalog under s3tablescatalog and its Glue databases. s3tablescatalog itself belongs to the
 * region-level integration, which outlives the lab: it is only probed, so its children can be listed.
 */
const glue: KindLister = {
  kind: 'glue catalog entry',
  async list(c, scope) {
    const out: Leftover[] = [];
    let parentExists = true;
    try {
      await c.glue.send(new GetCatalogCommand({ CatalogId: 's3tablescatalog' }));
    } catch (e) {
      if (!notFound(e)) throw e;
      parentExists = false;
    }
    if (parentExists) {
      const children = await paginate(async (t) => {
        const r = await c.glue.send(
          new GetCatalogsCommand({ ParentCatalogId: 's3tablescatalog', NextToken: t }),
        );
        return { items: r.CatalogList ?? [], next: r.NextToken };
      });
      for (const cat of children.filter((x) => belongsToLab(x.Name, scope)))
        out.push({ kind: 'glue catalog', name: `s3tablescatalog/${cat.Name}` });
    }
    const dbs = await paginate(async (t) => {
      const r = await c.glue.send(new GetDatabasesCommand({ NextToken: t }));
      return { items: r.DatabaseList ?? [], next: r.NextToken };
    });
    for (const db of dbs.filter((d) => belongsToLab(d.Name, scope)))
      out.push({ kind: 'glue database', name: db.Name ?? '?' });
    return out;
  },
};

const workgroups: KindLister = {
  kind: 'athena workgroup',
  async list(c, scope) {
    const all = await paginate(async (t) => {
      const r = await c.athena.send(new ListWorkGroupsCommand({ NextToken: t }));
      return { items: r.WorkGroups ?? [], next: r.NextToken };
    });
    return all
      .filter((w) => belongsToLab(w.Name, scope))
      .map((w) => ({ kind: 'athena workgroup', name: w.Name ?? '?', detail: w.State }));
  },
};

const iam: KindLister = {
  kind: 'iam role/policy',
  async list(c, scope) {
    const roles = await paginate(async (t) => {
      const r = await c.iam.send(new ListRolesCommand({ Marker: t }));
      return { items: r.Roles ?? [], next: r.IsTruncated ? r.Marker : undefined };
    });
    const policies = await paginate(async (t) => {
      const r = await c.iam.send(new ListPoliciesCommand({ Scope: 'Local', Marker: t }));
      return { items: r.Policies ?? [], next: r.IsTruncated ? r.Marker : undefined };
    });
    return [
      ...roles
        .filter((r) => belongsToLab(r.RoleName, scope))
        .map((r) => ({ kind: 'iam role', name: r.RoleName ?? '?' })),
      ...policies
        .filter((p) => belongsToLab(p.PolicyName, scope))
        .map((p) => ({ kind: 'iam policy', name: p.PolicyName ?? '?' })),
    ];
  },
};

const buckets: KindLister = {
  kind: 's3 bucket',
  async list(c, scope) {
    const all = await paginate(async (t) => {
      const r = await c.s3.send(
        new ListBucketsCommand({
          Prefix: scope.namePrefix,
          ContinuationToken: t,
          BucketRegion: scope.region,
        }),
      );
      return { items: r.Buckets ?? [], next: r.ContinuationToken };
    });
    return all
      .filter((b) => belongsToLab(b.Name, scope))
      .map((b) => ({ kind: 's3 bucket', name: b.Name ?? '?' }));
  },
};

const logGroups: KindLister = {
  kind: 'log group',
  async list(c, scope) {
    const all = await paginate(async (t) => {
      const r = await c.logs.send(
        new DescribeLogGroupsCommand({ logGroupNamePattern: scope.namePrefix, nextToken: t }),
      );
      return { items: r.logGroups ?? [], next: r.nextToken };
    });
    return all
      .filter((g) => g.logGroupName?.includes(scope.namePrefix))
      .map((g) => ({ kind: 'log group', name: g.logGroupName ?? '?' }));
  },
};

const topics: KindLister = {
  kind: 'sns topic',
  async list(c, scope) {
    const all = await paginate(async (t) => {
      const r = await c.sns.send(new ListTopicsCommand({ NextToken: t }));
      return { items: r.Topics ?? [], next: r.NextToken };
    });
    return all
      .filter((x) => belongsToLab(x.TopicArn?.split(':').at(-1), scope))
      .map((x) => ({ kind: 'sns topic', name: x.TopicArn?.split(':').at(-1) ?? '?', detail: x.TopicArn }));
  },
};

const lambdas: KindLister = {
  kind: 'lambda function',
  async list(c, scope) {
    const all = await paginate(async (t) => {
      const r = await c.lambda.send(new ListFunctionsCommand({ Marker: t }));
      return { items: r.Functions ?? [], next: r.NextMarker };
    });
    return all
      .filter((f) => belongsToLab(f.FunctionName, scope))
      .map((f) => ({ kind: 'lambda function', name: f.FunctionName ?? '?' }));
  },
};

const stateMachines: KindLister = {
  kind: 'state machine',
  async list(c, scope) {
    const all = await paginate(async (t) => {
      const r = await c.sfn.send(new ListStateMachinesCommand({ nextToken: t }));
      return { items: r.stateMachines ?? [], next: r.nextToken };
    });
    return all
      .filter((m) => belongsToLab(m.name, scope))
      .map((m) => ({ kind: 'state machine', name: m.name ?? '?' }));
  },
};

const schedules: KindLister = {
  kind: 'schedule',
  async list(c, scope) {
    const all = await paginate(async (t) => {
      const r = await c.scheduler.send(
        new ListSchedulesCommand({ NamePrefix: scope.namePrefix, NextToken: t }),
      );
      return { items: r.Schedules ?? [], next: r.NextToken };
    });
    return all
      .filter((s) => belongsToLab(s.Name, scope))
      .map((s) => ({ kind: 'schedule', name: `${s.GroupName ?? 'default'}/${s.Name}` }));
  },
};

const alarms: KindLister = {
  kind: 'cloudwatch alarm',
  async list(c, scope) {
    const all = await paginate(async (t) => {
      const r = await c.cloudwatch.send(
        new DescribeAlarmsCommand({ AlarmNamePrefix: scope.namePrefix, NextToken: t }),
      );
      return { items: [...(r.MetricAlarms ?? []), ...(r.CompositeAlarms ?? [])], next: r.NextToken };
    });
    return all
      .filter((a) => belongsToLab(a.AlarmName, scope))
      .map((a) => ({ kind: 'cloudwatch alarm', name: a.AlarmName ?? '?' }));
  },
};

export const KINDS: readonly KindLister[] = [
  tableBuckets,
  streams,
  glue,
  workgroups,
  iam,
  buckets,
  logGroups,
  topics,
  lambdas,
  stateMachines,
  schedules,
  alarms,
  lakeFormationPermissions,
];
