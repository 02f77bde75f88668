// An S3 bucket the way the lab policy wants every bucket: public access blocked, SSE-S3, TLS-only, owner-enforced,
// and expiring objects (it only ever holds failed records or derived data).
import { Construct } from 'constructs';
import type * as s3Bucket from '@cdktf/provider-aws/lib/s3-bucket';
import type * as s3BucketLifecycleConfiguration from '@cdktf/provider-aws/lib/s3-bucket-lifecycle-configuration';
import type * as s3BucketOwnershipControls from '@cdktf/provider-aws/lib/s3-bucket-ownership-controls';
import type * as s3BucketPolicy from '@cdktf/provider-aws/lib/s3-bucket-policy';
import type * as s3BucketPublicAccessBlock from '@cdktf/provider-aws/lib/s3-bucket-public-access-block';
import type * as s3BucketServerSideEncryptionConfiguration from '@cdktf/provider-aws/lib/s3-bucket-server-side-encryption-configuration';
import { policyJson } from './iam';
import { awsLib } from './provider-aws';

const { S3Bucket } = awsLib<typeof s3Bucket>('s3-bucket');
const { S3BucketLifecycleConfiguration } = awsLib<typeof s3BucketLifecycleConfiguration>(
  's3-bucket-lifecycle-configuration',
);
const { S3BucketOwnershipControls } = awsLib<typeof s3BucketOwnershipControls>(
  's3-bucket-ownership-controls',
);
const { S3BucketPolicy } = awsLib<typeof s3BucketPolicy>('s3-bucket-policy');
const { S3BucketPublicAccessBlock } = awsLib<typeof s3BucketPublicAccessBlock>(
  's3-bucket-public-access-block',
);
const { S3BucketServerSideEncryptionConfigurationA } = awsLib<
  typeof s3BucketServerSideEncryptionConfiguration
>('s3-bucket-server-side-encryption-configuration');

export interface PrivateBucketProps {
  readonly bucket: string;
  readonly expireAfterDays: number;
  /** Let destroy empty the bucket (it holds only lab debris). */
  readonly forceDestroy?: boolean;
}

export class PrivateBucket extends Construct {
  readonly bucket: s3Bucket.S3Bucket;

  constructor(scope: Construct, id: string, props: PrivateBucketProps) {
    super(scope, id);
    this.bucket = new S3Bucket(this, 'bucket', {
      bucket: props.bucket,
      forceDestroy: props.forceDestroy ?? true,
    });
    new S3BucketPublicAccessBlock(this, 'public-access-block', {
      bucket: this.bucket.id,
      blockPublicAcls: true,
      blockPublicPolicy: true,
      ignorePublicAcls: true,
      restrictPublicBuckets: true,
    });
    new S3BucketOwnershipControls(this, 'ownership', {
      bucket: this.bucket.id,
      rule: { objectOwnership: 'BucketOwnerEnforced' },
    });
    new S3BucketServerSideEncryptionConfigurationA(this, 'encryption', {
      bucket: this.bucket.id,
      rule: [{ applyServerSideEncryptionByDefault: { sseAlgorithm: 'AES256' } }],
    });
    new S3BucketPolicy(this, 'tls-only', {
      bucket: this.bucket.id,
      policy: policyJson({
        Sid: 'DenyInsecureTransport',
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: ['s3:*'],
        Resource: [this.bucket.arn, `${this.bucket.arn}/*`],
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    });
    new S3BucketLifecycleConfiguration(this, 'lifecycle', {
      bucket: this.bucket.id,
      rule: [
        { id: 'expire', status: 'Enabled', filter: [{}], expiration: [{ days: props.expireAfterDays }] },
      ],
    });
  }
}
