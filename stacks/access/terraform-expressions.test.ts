import { describe, expect, test } from '@jest/globals';
import {
  TerraformExpressions,
  UnresolvedReferenceError,
  type SynthesizedStack,
} from './terraform-expressions';

const VALUES = { account: '123456789012', deployerArn: 'arn:aws:iam::123456789012:role/deployer' };

const producer: SynthesizedStack = {
  provider: { aws: [{ region: 'us-east-1' }] },
  resource: {
    aws_s3tables_table_bucket: { bucket: { name: 'loglake-01-flow-logs' } },
    aws_s3tables_table: { table: { name: 'vpc_flow_logs', namespace: 'network' } },
  },
  output: {
    table_bucket_name: { value: '${aws_s3tables_table_bucket.bucket.name}' },
    table_arn: { value: '${aws_s3tables_table.table.arn}' },
  },
};
const consumer: SynthesizedStack = {
  provider: { aws: [{ region: 'eu-west-1' }] },
  locals: {
    table_bucket_table_bucket_name:
      '${try(data.terraform_remote_state.table_bucket[0].outputs.table_bucket_name, "mock-bucket")}',
  },
  resource: {
    aws_s3_bucket: { errors: { bucket: 'loglake-01-errors-${data.aws_caller_identity.account.account_id}' } },
    aws_iam_role: { role: { name: 'loglake-01-firehose' } },
    aws_glue_catalog_database: { db: { name: '${upper("x")}' } },
  },
};
const refs = new TerraformExpressions(
  { 'table-bucket': producer, firehose: consumer },
  { firehose: { table_bucket: 'table-bucket' } },
  VALUES,
);

describe('Terraform references resolved as they would be once applied', () => {
  test('caller identity, resource ARNs from their arguments, and the region of the stack', () => {
    expect(refs.resolve('firehose', '${aws_s3_bucket.errors.arn}/*', 'test')).toBe(
      'arn:aws:s3:::loglake-01-errors-123456789012/*',
    );
    expect(refs.resolve('firehose', '${aws_iam_role.role.arn}', 'test')).toBe(
      'arn:aws:iam::123456789012:role/loglake-01-firehose',
    );
    expect(
      refs.resolve('firehose', 'arn:aws:glue:${data.aws_caller_identity.a.account_id}:catalog', 't'),
    ).toBe('arn:aws:glue:123456789012:catalog');
  });

  test("a dependency's output is read from the producer's stack, never from the plan's mock value", () => {
    expect(refs.resolve('firehose', 'x/${local.table_bucket_table_bucket_name}', 'test')).toBe(
      'x/loglake-01-flow-logs',
    );
  });

  test('what would have to be guessed stops with the expression, the place and the fix', () => {
    expect(() => refs.output('table-bucket', 'table_arn')).toThrow(UnresolvedReferenceError);
    expect(() => refs.output('table-bucket', 'table_arn')).toThrow(
      /aws_s3tables_table\.table\.arn.*which AWS generates.*teach stacks\/access\/terraform-expressions\.ts/,
    );
    expect(() => refs.resolve('firehose', '${aws_glue_catalog_database.db.name}', 'test')).toThrow(
      /cannot resolve \$\{upper\("x"\)\} \(an expression that is not a plain reference\)/,
    );
    expect(() => refs.resolve('firehose', '${local.nope}', 'test')).toThrow(
      /a local the stack does not define/,
    );
  });
});
