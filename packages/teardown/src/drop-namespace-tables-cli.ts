// Entry the ref-data / table-bucket destroy-time step runs (env from terraform_data's self.input). Exit non-zero on
// failure so the destroy stops rather than leaving a namespace Terraform then cannot delete.
import { S3TablesClient } from '@aws-sdk/client-s3tables';
import { dropNamespaceTables } from './drop-namespace-tables';

const { TABLE_BUCKET_ARN = '', NAMESPACE = '', KEEP_TABLES = '', AWS_REGION } = process.env;
try {
  if (!TABLE_BUCKET_ARN || !NAMESPACE)
    throw new Error(
      'set TABLE_BUCKET_ARN and NAMESPACE (Terraform passes them from the terraform_data input)',
    );
  const region = AWS_REGION ?? TABLE_BUCKET_ARN.split(':')[3];
  const dropped = await dropNamespaceTables(new S3TablesClient({ region }), {
    tableBucketArn: TABLE_BUCKET_ARN,
    namespace: NAMESPACE,
    keep: KEEP_TABLES.split(',').filter(Boolean),
  });
  console.log(
    dropped.length === 0
      ? `namespace ${NAMESPACE}: no SQL-created tables to drop`
      : `namespace ${NAMESPACE}: dropped ${dropped.join(', ')}`,
  );
} catch (error) {
  console.error(`drop-namespace-tables: ${(error as Error).message}`);
  process.exit(1);
}
