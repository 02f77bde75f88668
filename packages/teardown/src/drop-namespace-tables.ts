// Empties a namespace before Terraform deletes it: S3 Tables refuses to delete a namespace that still has tables,
// and the lab's SQL creates tables Terraform never knew about. Tables Terraform manages are kept for Terraform.
import { DeleteTableCommand, ListTablesCommand, type S3TablesClient } from '@aws-sdk/client-s3tables';
import { TeardownInputError } from './errors';
import { paginate } from './paginate';

export interface DropNamespaceTablesInput {
  readonly tableBucketArn: string;
  readonly namespace: string;
  readonly keep?: readonly string[];
}

const ARN_RE = /^arn:aws[a-z-]*:s3tables:[a-z0-9-]+:\d{12}:bucket\/[a-z0-9-]+$/;

export async function dropNamespaceTables(
  client: S3TablesClient,
  input: DropNamespaceTablesInput,
): Promise<string[]> {
  if (!ARN_RE.test(input.tableBucketArn)) {
    throw new TeardownInputError(
      `TABLE_BUCKET_ARN "${input.tableBucketArn}" is not a table bucket ARN (arn:aws:s3tables:<region>:<account>:bucket/<name>)`,
      { value: input.tableBucketArn },
    );
  }
  const keep = new Set(input.keep ?? []);
  const tables = await paginate(async (token) => {
    const page = await client.send(
      new ListTablesCommand({
        tableBucketARN: input.tableBucketArn,
        namespace: input.namespace,
        continuationToken: token,
      }),
    );
    return { items: page.tables ?? [], next: page.continuationToken };
  });
  const names = tables.map((t) => t.name ?? '').filter((n) => n && !keep.has(n));
  for (const name of names) {
    await client.send(
      new DeleteTableCommand({ tableBucketARN: input.tableBucketArn, namespace: input.namespace, name }),
    );
  }
  return names;
}
