// The authorization options, read once: every document parsed (a malformed one stops the endpoint at start, naming
// it), roles by ARN, a role's identity-based policies, a resource's resource-based policy.
import { LocalEndpointConfigError } from '../errors';
import { parsePolicyDocument, type PolicyDocument } from '../iam/policy';
import { PolicyNotUnderstoodError } from '../iam/errors';
import type { AuthorizationOptions, LocalRoleSpec } from './options';
import { ACCESS_KEY_ID } from './sigv4';

export interface LocalRole {
  readonly arn: string;
  readonly name: string;
  readonly trustPolicy: PolicyDocument;
  readonly identityPolicies: readonly PolicyDocument[];
}

const roleName = (arn: string) => arn.split('/').pop() ?? arn;

function parse(document: unknown, source: string): PolicyDocument {
  try {
    return parsePolicyDocument(document, source);
  } catch (error) {
    if (error instanceof PolicyNotUnderstoodError)
      throw new LocalEndpointConfigError(`authorization: ${error.message}`, {
        value: error.value,
        cause: error,
      });
    throw error;
  }
}

/** A managed policy the endpoint has no document for: refused, naming it, rather than guessed. */
function unknownManagedPolicy(arn: string, role: string): PolicyDocument {
  return {
    source: `role ${role}, managed policy ${arn}`,
    statements: [],
    notUnderstood: `the local endpoint has no document for managed policy ${arn} (give it in authorization.managedPolicies)`,
  };
}

export class AccessDirectory {
  private readonly roles = new Map<string, LocalRole>();
  private readonly resourcePolicies = new Map<string, PolicyDocument>();

  constructor(readonly options: AuthorizationOptions) {
    for (const spec of options.roles) this.roles.set(spec.arn, this.role(spec));
    for (const p of options.resourcePolicies ?? [])
      this.resourcePolicies.set(
        p.resourceArn,
        parse(p.document, `resource-based policy of ${p.resourceArn}`),
      );
    for (const c of options.credentials) {
      if (!ACCESS_KEY_ID.test(c.accessKeyId))
        throw new LocalEndpointConfigError(
          `authorization: local access key ${JSON.stringify(c.accessKeyId)} does not have the form AWS gives access keys (16–128 letters, digits or underscores, e.g. AKIAIOSFODNN7EXAMPLE); requests signed with it would be refused`,
          { value: c.accessKeyId },
        );
      if (!this.roles.has(c.roleArn))
        throw new LocalEndpointConfigError(
          `authorization: local access key ${c.accessKeyId} signs as role ${c.roleArn}, which is not among the roles; add the role or fix the credentials`,
          { value: c.roleArn },
        );
    }
  }

  private role(spec: LocalRoleSpec): LocalRole {
    const name = roleName(spec.arn);
    return {
      arn: spec.arn,
      name,
      trustPolicy: parse(spec.trustPolicy, `role ${name}, trust policy`),
      identityPolicies: [
        ...spec.policies.map((p) => parse(p.document, `role ${name}, policy ${p.name}`)),
        ...(spec.managedPolicyArns ?? []).map((arn) => {
          const document = this.options.managedPolicies?.[arn];
          return document === undefined
            ? unknownManagedPolicy(arn, name)
            : parse(document, `role ${name}, managed policy ${arn}`);
        }),
      ],
    };
  }

  roleByArn(arn: string): LocalRole | undefined {
    return this.roles.get(arn);
  }

  /** The resource-based policy that governs a resource: an S3 object's is its bucket's. */
  resourcePolicyFor(resourceArn: string): PolicyDocument | undefined {
    const s3 = /^(arn:aws[a-z-]*:s3:::[^/]+)(\/.*)?$/.exec(resourceArn);
    return this.resourcePolicies.get(s3 ? (s3[1] as string) : resourceArn);
  }
}
