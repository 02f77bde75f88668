// What the endpoint is told to enforce (LocalEndpointOptions.authorization): the roles with their trust and
// permissions policies, resource-based policies, the local credentials and whom they stand for, and Lake Formation's
// grants. Plain data: the lab builds it from the synthesized stacks, tests write it by hand.

export interface LocalRoleSpec {
  readonly arn: string;
  readonly trustPolicy: unknown;
  /** Inline (and customer managed) permissions policies: name and document. */
  readonly policies: ReadonlyArray<{ readonly name: string; readonly document: unknown }>;
  /** AWS managed policies attached; their documents come from `managedPolicies`. */
  readonly managedPolicyArns?: readonly string[];
}

/** A long-term local access key and the role session it signs as (what the standard chain would give). */
export interface LocalCredentialsSpec {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly roleArn: string;
  readonly sessionName: string;
}

export interface LakeFormationGrantSpec {
  readonly principal: string;
  /** ALL, SELECT, INSERT, DELETE, ALTER, DROP, DESCRIBE, CREATE_TABLE. */
  readonly permissions: readonly string[];
  /** `<account>:s3tablescatalog/<table bucket>` (or `<account>`, the default catalog). */
  readonly catalogId: string;
  readonly database: string;
  /** A table grant: its name, or `*` for every table of the database; absent for a database grant. */
  readonly table?: string;
}

export interface AuthorizationOptions {
  readonly roles: readonly LocalRoleSpec[];
  readonly credentials: readonly LocalCredentialsSpec[];
  /** Documents of the AWS managed policies the roles attach, by ARN (one without a document is refused). */
  readonly managedPolicies?: Readonly<Record<string, unknown>>;
  /** Resource-based policies by resource ARN (S3 bucket policies). */
  readonly resourcePolicies?: ReadonlyArray<{ readonly resourceArn: string; readonly document: unknown }>;
  /**
   * Principals (role ARNs) that may use the endpoint's admin API (/_local/*: maintenance, flushes, clocks, stats);
   * the holder of the admin token the endpoint makes at start may too. None by default.
   */
  readonly administrators?: readonly string[];
  readonly lakeFormation?: {
    readonly grants: readonly LakeFormationGrantSpec[];
    /** Principals (role ARNs) that are Lake Formation data lake administrators. */
    readonly dataLakeAdmins?: readonly string[];
  };
}
