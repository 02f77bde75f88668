// Base of every unit's stack: AWS provider with the lab's default tags and allowed accounts, the unit's backend
// (S3 with use_lockfile, key = unit path; or local under .lab/), and the provider constraint all stacks share.
import { LocalBackend, S3Backend, TerraformOutput, TerraformStack, type S3BackendConfig } from 'cdktf';
import type { Construct } from 'constructs';
import type * as awsProvider from '@cdktf/provider-aws/lib/provider';
import type * as dataAwsCallerIdentity from '@cdktf/provider-aws/lib/data-aws-caller-identity';
import type * as dataAwsIamSessionContext from '@cdktf/provider-aws/lib/data-aws-iam-session-context';
import type * as dataAwsPartition from '@cdktf/provider-aws/lib/data-aws-partition';
import type { ResolvedUnit, TfCommand } from './contract';
import { StacksError } from './errors';
import { repoRootFromStack } from './paths';
import { AWS_PROVIDER_VERSION } from './provider-version';
import { UpstreamOutputs } from './upstream';
import { awsLib } from './provider-aws';

const { AwsProvider } = awsLib<typeof awsProvider>('provider');
const { DataAwsCallerIdentity } = awsLib<typeof dataAwsCallerIdentity>('data-aws-caller-identity');
const { DataAwsIamSessionContext } = awsLib<typeof dataAwsIamSessionContext>('data-aws-iam-session-context');
const { DataAwsPartition } = awsLib<typeof dataAwsPartition>('data-aws-partition');

// The prebuilt bindings wrap AWS provider 6.25.0, but aws_glue_catalog (the s3tablescatalog federated catalog,
// written through the raw-resource escape hatch) only exists from 6.44.0 on. Every stack pins the same exact version
// (./provider-version.ts) so every init, on every machine, gets the provider the stacks were checked against.
export const AWS_PROVIDER_CONSTRAINT = `= ${AWS_PROVIDER_VERSION}`;

export interface LabStackOptions {
  /** cdktf output directory (to compute relative paths from the stack's working folder). */
  readonly outdir?: string;
  /** The command the wrapper announced (LOGLAKE_TF_COMMAND); decides whether dependencies may embed mocks. */
  readonly command?: TfCommand;
}

export class LabStack<I = unknown> extends TerraformStack {
  readonly unit: ResolvedUnit<I>;
  readonly provider: awsProvider.AwsProvider;
  /** Relative path from this stack's terraform working directory to the repository root. */
  readonly repoRoot: string;
  /** The command this synth is for (undefined: not known, as strict as an apply). */
  protected readonly command: TfCommand | undefined;
  private readonly upstreams = new Map<string, UpstreamOutputs>();
  private identity?: dataAwsCallerIdentity.DataAwsCallerIdentity;
  private deployerSession?: dataAwsIamSessionContext.DataAwsIamSessionContext;
  private partitionData?: dataAwsPartition.DataAwsPartition;

  constructor(scope: Construct, unit: ResolvedUnit<I>, options: LabStackOptions = {}) {
    super(scope, unit.name);
    this.unit = unit;
    this.command = options.command;
    this.repoRoot = repoRootFromStack(options.outdir ?? 'cdktf.out', unit.name);
    this.provider = new AwsProvider(this, 'aws', {
      region: unit.region,
      defaultTags: [{ tags: { ...unit.tags } }],
      ...(unit.allowedAccountIds.length > 0 ? { allowedAccountIds: [...unit.allowedAccountIds] } : {}),
    });
    this.addOverride('terraform.required_providers.aws.version', AWS_PROVIDER_CONSTRAINT);
    // use_lockfile (S3-native locking) needs Terraform >= 1.10 (OpenTofu >= 1.10).
    this.addOverride('terraform.required_version', '>= 1.10.0');
    const rs = unit.remoteState;
    if (rs.backend === 's3') {
      // use_lockfile: S3-native state locking (Terraform >= 1.10 / OpenTofu >= 1.8); no DynamoDB table to manage.
      const config: S3BackendConfig & { useLockfile: boolean } = {
        bucket: rs.bucket,
        key: rs.key,
        region: rs.region,
        encrypt: true,
        useLockfile: true,
      };
      new S3Backend(this, config);
    } else {
      new LocalBackend(this, { path: `${this.repoRoot}/${rs.path}` });
    }
  }

  /** Outputs of the unit this one depends on under `alias` (its `dependency "<alias>"` block), via remote state. */
  upstream(alias: string): UpstreamOutputs {
    const existing = this.upstreams.get(alias);
    if (existing) return existing;
    const dependency = this.unit.dependencies.find((d) => d.name === alias);
    if (!dependency) {
      const known = this.unit.dependencies.map((d) => d.name).join(', ') || 'none';
      throw new StacksError(
        `unit ${this.unit.name}: its stack reads dependency "${alias}", but the unit file declares ${known}; add dependencies.${alias} to ${this.unit.path}.ts`,
        { value: alias },
      );
    }
    const upstream = new UpstreamOutputs(this, `upstream-${alias}`, {
      dependency,
      command: this.command,
      repoRoot: this.repoRoot,
    });
    this.upstreams.set(alias, upstream);
    return upstream;
  }

  /** Who deploys, in which account (one aws_caller_identity per stack). */
  protected get callerIdentity(): dataAwsCallerIdentity.DataAwsCallerIdentity {
    this.identity ??= new DataAwsCallerIdentity(this, 'account');
    return this.identity;
  }

  /** The partition the provider's credentials are in (aws, aws-cn, aws-us-gov): every ARN the stack writes uses it. */
  protected get partition(): string {
    this.partitionData ??= new DataAwsPartition(this, 'partition');
    return this.partitionData.partition;
  }

  /** `arn:<partition>:<service>:<region>:<account>:<resource>` in this stack's region and account. */
  protected arn(service: string, resource: string): string {
    return `arn:${this.partition}:${service}:${this.unit.region}:${this.callerIdentity.accountId}:${resource}`;
  }

  /** The deployer's IAM principal: the role behind its session (issuer_arn), what Lake Formation grants name. */
  protected get deployerArn(): string {
    this.deployerSession ??= new DataAwsIamSessionContext(this, 'deployer', { arn: this.callerIdentity.arn });
    return this.deployerSession.issuerArn;
  }

  /**
   * Who runs the lab's SQL and gets its Lake Formation grants: the lab role (table-bucket's `<prefix>-lab`, which the
   * deployer assumes) and the unit's lab principals, each with an id for its grants' names. Never the deployer: it is
   * a data lake administrator, whose implicit permissions a grant resource would read back and try to revoke.
   */
  protected labPrincipals(
    labRoleArn: string,
    labPrincipalArns: readonly string[],
  ): { id: string; arn: string }[] {
    return [
      { id: 'lab', arn: labRoleArn },
      ...labPrincipalArns.map((arn, n) => ({ id: `principal-${n}`, arn })),
    ];
  }

  /** Guards of every dependency read so far: resources using upstream values depend on them. */
  get upstreamGuards(): UpstreamOutputs['guard'][] {
    return [...this.upstreams.values()].map((u) => u.guard);
  }

  /** One Terraform output per entry, named exactly as the key (the names other units read through remote state). */
  protected addOutputs(outputs: Readonly<Record<string, string>>): void {
    for (const [key, value] of Object.entries(outputs))
      new TerraformOutput(this, `output-${key}`, { value }).overrideLogicalId(key);
  }

  /** `<prefix>-<labId>-<suffix>`: every named resource carries the lab prefix. */
  name(suffix: string): string {
    return `${this.unit.namePrefix}-${suffix}`;
  }
}
