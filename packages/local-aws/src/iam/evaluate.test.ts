// The evaluator against the examples of the IAM User Guide. Each describe block names the page it comes from; the
// policies are the pages' own, the expected decisions what the pages say happens. The pages, under
// https://docs.aws.amazon.com/IAM/latest/UserGuide/: reference_policies_evaluation-logic.html ("Policy evaluation
// logic"), reference_policies_evaluation-logic_policy-eval-basics.html ("Policy evaluation for requests within a
// single account", the carlossalazar example), reference_policies_evaluation-logic_AccessPolicyLanguage_Interplay.html
// ("The difference between explicit and implicit denies"), reference_policies_elements_action.html,
// reference_policies_elements_resource.html, reference_policies_elements_notaction.html,
// reference_policies_elements_notresource.html, reference_policies_elements_condition_operators.html and
// reference_policies_condition-single-vs-multi-valued-context-keys.html (conditions), troubleshoot_access-denied.html
// (the messages).
import { describe, expect, test } from '@jest/globals';
import {
  accessDeniedMessage,
  evaluate,
  evaluateAssumeRole,
  parsePolicyDocument,
  RequestContext,
  type Caller,
  type Decision,
} from './index';
import { assumedRoleCaller, serviceCaller } from './principals';

const ACCOUNT = '111122223333';
const user = (name: string): Caller => ({
  kind: 'user',
  arn: `arn:aws:iam::${ACCOUNT}:user/${name}`,
  account: ACCOUNT,
});
const doc = (statements: unknown[], source = 'test policy') =>
  parsePolicyDocument({ Version: '2012-10-17', Statement: statements }, source);
const ask = (
  caller: Caller,
  action: string,
  resource: string,
  identity: ReturnType<typeof doc>[],
  resourcePolicy?: ReturnType<typeof doc>,
  context: Record<string, string | string[]> = {},
): Decision =>
  evaluate(
    { caller, action, resource, context: new RequestContext(context) },
    { identity, ...(resourcePolicy ? { resource: resourcePolicy } : {}) },
  );

describe('"Policy evaluation for requests within a single account", example identity-based and resource-based policy evaluation', () => {
  // The page's identity-based policy attached to the IAM user carlossalazar.
  const carlos = doc([
    {
      Sid: 'AllowS3ListRead',
      Effect: 'Allow',
      Action: [
        's3:GetBucketLocation',
        's3:GetAccountPublicAccessBlock',
        's3:ListAccessPoints',
        's3:ListAllMyBuckets',
      ],
      Resource: 'arn:aws:s3:::*',
    },
    {
      Sid: 'AllowS3Self',
      Effect: 'Allow',
      Action: 's3:*',
      Resource: [
        'arn:aws:s3:::amzn-s3-demo-bucket-carlossalazar/*',
        'arn:aws:s3:::amzn-s3-demo-bucket-carlossalazar',
      ],
    },
    { Sid: 'DenyS3Logs', Effect: 'Deny', Action: 's3:*', Resource: 'arn:aws:s3:::*log*' },
  ]);
  // The page's bucket policy on amzn-s3-demo-bucket-carlossalazar: only carlossalazar may access the bucket.
  const bucketPolicy = doc([
    {
      Effect: 'Allow',
      Principal: { AWS: `arn:aws:iam::${ACCOUNT}:user/carlossalazar` },
      Action: 's3:*',
      Resource: [
        'arn:aws:s3:::amzn-s3-demo-bucket-carlossalazar/*',
        'arn:aws:s3:::amzn-s3-demo-bucket-carlossalazar',
      ],
    },
  ]);

  test('saving a file to the -logs bucket is explicitly denied by DenyS3Logs', () => {
    const decision = ask(
      user('carlossalazar'),
      's3:PutObject',
      'arn:aws:s3:::amzn-s3-demo-bucket-carlossalazar-logs/report.txt',
      [carlos],
    );
    expect(decision).toMatchObject({ allowed: false, reason: 'explicit-deny', policyType: 'identity-based' });
  });

  test('his own bucket is allowed (both policies allow it)', () => {
    const decision = ask(
      user('carlossalazar'),
      's3:PutObject',
      'arn:aws:s3:::amzn-s3-demo-bucket-carlossalazar/report.txt',
      [carlos],
      bucketPolicy,
    );
    expect(decision.allowed).toBe(true);
  });

  test('listing any bucket is allowed by AllowS3ListRead', () => {
    expect(
      ask(user('carlossalazar'), 's3:GetBucketLocation', 'arn:aws:s3:::another-bucket', [carlos]).allowed,
    ).toBe(true);
  });

  test('"If either the identity-based policy or the resource-based policy ... allows the request ... it is still allowed"', () => {
    // Another user with no identity-based policy at all: the bucket policy alone names carlossalazar, not them.
    expect(
      ask(
        user('maria'),
        's3:GetObject',
        'arn:aws:s3:::amzn-s3-demo-bucket-carlossalazar/a',
        [],
        bucketPolicy,
      ),
    ).toEqual({
      allowed: false,
      reason: 'implicit-deny',
    });
    // carlossalazar without his identity policy: the resource-based policy alone allows him.
    expect(
      ask(
        user('carlossalazar'),
        's3:GetObject',
        'arn:aws:s3:::amzn-s3-demo-bucket-carlossalazar/a',
        [],
        bucketPolicy,
      ),
    ).toMatchObject({
      allowed: true,
      by: 'resource-based',
    });
  });
});

describe('"The difference between explicit and implicit denies"', () => {
  // The page's policy: read-only IAM, except the reports.
  const policy = doc([
    { Sid: 'AllowGetList', Effect: 'Allow', Action: ['iam:Get*', 'iam:List*'], Resource: '*' },
    { Sid: 'DenyReports', Effect: 'Deny', Action: 'iam:*Report', Resource: '*' },
  ]);
  const someone = user('reader');

  test('Get and List actions are allowed', () => {
    expect(ask(someone, 'iam:GetUser', '*', [policy]).allowed).toBe(true);
    expect(ask(someone, 'iam:ListRoles', '*', [policy]).allowed).toBe(true);
  });

  test('"All other actions in IAM, such as iam:CreatePolicy are implicitly denied"', () => {
    expect(ask(someone, 'iam:CreatePolicy', '*', [policy])).toEqual({
      allowed: false,
      reason: 'implicit-deny',
    });
  });

  test('a report is explicitly denied, even when another policy allows it', () => {
    const allowReports = doc(
      [{ Effect: 'Allow', Action: 'iam:GenerateCredentialReport', Resource: '*' }],
      'reports',
    );
    expect(ask(someone, 'iam:GetOrganizationsAccessReport', '*', [policy])).toMatchObject({
      reason: 'explicit-deny',
    });
    expect(ask(someone, 'iam:GenerateCredentialReport', '*', [policy, allowReports])).toMatchObject({
      reason: 'explicit-deny',
      source: 'test policy statement 1 (DenyReports)',
    });
  });
});

describe('"IAM JSON policy elements: Action" and "Resource": wildcards', () => {
  const policy = doc([
    { Effect: 'Allow', Action: 's3:Get*', Resource: 'arn:aws:s3:::amzn-s3-demo-bucket/*' },
  ]);

  test('"The prefix and the action name are case insensitive"', () => {
    expect(ask(user('a'), 'S3:getobject', 'arn:aws:s3:::amzn-s3-demo-bucket/x', [policy]).allowed).toBe(true);
  });

  test('a resource wildcard covers the objects of the bucket, not the bucket or another bucket', () => {
    expect(
      ask(user('a'), 's3:GetObject', 'arn:aws:s3:::amzn-s3-demo-bucket/a/b/c.txt', [policy]).allowed,
    ).toBe(true);
    expect(ask(user('a'), 's3:GetObject', 'arn:aws:s3:::amzn-s3-demo-bucket', [policy]).allowed).toBe(false);
    expect(ask(user('a'), 's3:GetObject', 'arn:aws:s3:::amzn-s3-demo-bucket2/a', [policy]).allowed).toBe(
      false,
    );
  });

  test('ARNs match component by component: `*` in the region does not reach into the resource', () => {
    const glue = doc([
      { Effect: 'Allow', Action: 'glue:GetTable', Resource: 'arn:aws:glue:*:111122223333:table/db/*' },
    ]);
    expect(
      ask(user('a'), 'glue:GetTable', 'arn:aws:glue:us-east-1:111122223333:table/db/t', [glue]).allowed,
    ).toBe(true);
    expect(
      ask(user('a'), 'glue:GetTable', 'arn:aws:glue:us-east-1:444455556666:table/db/t', [glue]).allowed,
    ).toBe(false);
  });
});

describe('"IAM JSON policy elements: NotAction" and "NotResource"', () => {
  test('"Allow NotAction iam:*" allows every action outside IAM', () => {
    const policy = doc([{ Effect: 'Allow', NotAction: 'iam:*', Resource: '*' }]);
    expect(ask(user('a'), 's3:ListAllMyBuckets', '*', [policy]).allowed).toBe(true);
    expect(ask(user('a'), 'iam:CreateUser', '*', [policy]).allowed).toBe(false);
  });

  test('"Deny NotResource" denies everything but the named resources', () => {
    const policy = doc([
      { Effect: 'Allow', Action: 's3:*', Resource: '*' },
      {
        Effect: 'Deny',
        Action: 's3:*',
        NotResource: ['arn:aws:s3:::HRBucket/Payroll', 'arn:aws:s3:::HRBucket/Payroll/*'],
      },
    ]);
    expect(ask(user('a'), 's3:GetObject', 'arn:aws:s3:::HRBucket/Payroll/jan', [policy]).allowed).toBe(true);
    expect(ask(user('a'), 's3:GetObject', 'arn:aws:s3:::HRBucket/Other', [policy])).toMatchObject({
      reason: 'explicit-deny',
    });
  });
});

describe('"Creating a condition with multiple context keys or values" and "Condition operators"', () => {
  const tagged = (values: Record<string, string | string[]>) => values;

  test('values of one key are ORed, keys are ANDed', () => {
    const policy = doc([
      {
        Effect: 'Allow',
        Action: 'iam:ListUsers',
        Resource: '*',
        Condition: {
          StringEquals: {
            'aws:PrincipalTag/department': ['finance', 'hr', 'legal'],
            'aws:PrincipalTag/role': ['audit', 'security'],
          },
        },
      },
    ]);
    const run = (ctx: Record<string, string>) =>
      ask(user('a'), 'iam:ListUsers', '*', [policy], undefined, tagged(ctx)).allowed;
    expect(run({ 'aws:PrincipalTag/department': 'hr', 'aws:PrincipalTag/role': 'audit' })).toBe(true);
    expect(run({ 'aws:PrincipalTag/department': 'hr', 'aws:PrincipalTag/role': 'dev' })).toBe(false);
    expect(run({ 'aws:PrincipalTag/department': 'marketing', 'aws:PrincipalTag/role': 'audit' })).toBe(false);
    // Condition key names are not case-sensitive.
    expect(run({ 'AWS:PRINCIPALTAG/DEPARTMENT': 'legal', 'aws:principaltag/role': 'security' })).toBe(true);
  });

  test('a negated operator with several values holds only when the request value matches none of them', () => {
    const policy = doc([
      {
        Effect: 'Allow',
        Action: 's3:GetObject',
        Resource: '*',
        Condition: { StringNotEquals: { 'aws:PrincipalTag/team': ['red', 'blue'] } },
      },
    ]);
    const run = (team?: string) =>
      ask(
        user('a'),
        's3:GetObject',
        'arn:aws:s3:::b/k',
        [policy],
        undefined,
        team ? { 'aws:PrincipalTag/team': team } : {},
      ).allowed;
    expect(run('green')).toBe(true);
    expect(run('blue')).toBe(false);
    // A negated operator on a key the request does not carry holds.
    expect(run()).toBe(true);
  });

  test('a positive operator on a missing key fails; ...IfExists holds ("If the key is not present, evaluate the condition element as true")', () => {
    const strict = doc([
      {
        Effect: 'Allow',
        Action: 'ec2:RunInstances',
        Resource: '*',
        Condition: { StringLike: { 'ec2:InstanceType': ['t1.*', 't2.*', 'm3.*'] } },
      },
    ]);
    const lenient = doc([
      {
        Effect: 'Allow',
        Action: 'ec2:RunInstances',
        Resource: '*',
        Condition: { StringLikeIfExists: { 'ec2:InstanceType': ['t1.*', 't2.*', 'm3.*'] } },
      },
    ]);
    expect(ask(user('a'), 'ec2:RunInstances', '*', [strict]).allowed).toBe(false);
    expect(ask(user('a'), 'ec2:RunInstances', '*', [lenient]).allowed).toBe(true);
    expect(
      ask(user('a'), 'ec2:RunInstances', '*', [lenient], undefined, { 'ec2:InstanceType': 'm5.large' })
        .allowed,
    ).toBe(false);
    expect(
      ask(user('a'), 'ec2:RunInstances', '*', [lenient], undefined, { 'ec2:InstanceType': 't2.micro' })
        .allowed,
    ).toBe(true);
  });

  test('Null: "true" holds when the key is absent (long-term credentials carry no aws:TokenIssueTime)', () => {
    const policy = doc([
      { Effect: 'Deny', Action: '*', Resource: '*', Condition: { Null: { 'aws:TokenIssueTime': 'true' } } },
    ]);
    const allowAll = doc([{ Effect: 'Allow', Action: '*', Resource: '*' }], 'admin');
    expect(ask(user('a'), 's3:GetObject', 'arn:aws:s3:::b/k', [allowAll, policy])).toMatchObject({
      reason: 'explicit-deny',
    });
    expect(
      ask(user('a'), 's3:GetObject', 'arn:aws:s3:::b/k', [allowAll, policy], undefined, {
        'aws:TokenIssueTime': '2026-12-01T00:00:00Z',
      }).allowed,
    ).toBe(true);
  });

  test('Bool: the S3 bucket policy that denies requests not sent over TLS', () => {
    const tlsOnly = doc([
      {
        Effect: 'Deny',
        Principal: '*',
        Action: 's3:*',
        Resource: ['arn:aws:s3:::amzn-s3-demo-bucket', 'arn:aws:s3:::amzn-s3-demo-bucket/*'],
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      },
    ]);
    const allow = doc([{ Effect: 'Allow', Action: 's3:*', Resource: '*' }]);
    const get = (secure: string) =>
      ask(user('a'), 's3:GetObject', 'arn:aws:s3:::amzn-s3-demo-bucket/k', [allow], tlsOnly, {
        'aws:SecureTransport': secure,
      });
    expect(get('false')).toMatchObject({ reason: 'explicit-deny', policyType: 'resource-based' });
    expect(get('true').allowed).toBe(true);
  });

  test('ForAnyValue needs one request value to match; ForAllValues holds for a missing key', () => {
    const any = doc([
      {
        Effect: 'Allow',
        Action: 'x:Y',
        Resource: '*',
        Condition: { 'ForAnyValue:StringEquals': { 'aws:TagKeys': ['env', 'team'] } },
      },
    ]);
    const all = doc([
      {
        Effect: 'Allow',
        Action: 'x:Y',
        Resource: '*',
        Condition: { 'ForAllValues:StringEquals': { 'aws:TagKeys': ['env', 'team'] } },
      },
    ]);
    expect(ask(user('a'), 'x:Y', '*', [any], undefined, { 'aws:TagKeys': ['cost', 'env'] }).allowed).toBe(
      true,
    );
    expect(ask(user('a'), 'x:Y', '*', [any]).allowed).toBe(false);
    expect(ask(user('a'), 'x:Y', '*', [all], undefined, { 'aws:TagKeys': ['cost', 'env'] }).allowed).toBe(
      false,
    );
    expect(ask(user('a'), 'x:Y', '*', [all], undefined, { 'aws:TagKeys': ['team', 'env'] }).allowed).toBe(
      true,
    );
    expect(ask(user('a'), 'x:Y', '*', [all]).allowed).toBe(true);
    // A missing key: ForAnyValue is false even with a negated operator (no request value to match).
    const anyNot = doc([
      {
        Effect: 'Allow',
        Action: 'x:Y',
        Resource: '*',
        Condition: { 'ForAnyValue:StringNotEquals': { 'aws:TagKeys': ['secret'] } },
      },
    ]);
    expect(ask(user('a'), 'x:Y', '*', [anyNot]).allowed).toBe(false);
    expect(ask(user('a'), 'x:Y', '*', [anyNot], undefined, { 'aws:TagKeys': ['env'] }).allowed).toBe(true);
  });

  test('Arn and Numeric operators', () => {
    const policy = doc([
      {
        Effect: 'Allow',
        Action: 'sqs:SendMessage',
        Resource: '*',
        Condition: {
          ArnLike: { 'aws:SourceArn': 'arn:aws:sns:*:111122223333:topic-*' },
          NumericLessThanEquals: { 's3:max-keys': '10' },
        },
      },
    ]);
    const run = (arn: string, keys: string) =>
      ask(user('a'), 'sqs:SendMessage', '*', [policy], undefined, {
        'aws:SourceArn': arn,
        's3:max-keys': keys,
      }).allowed;
    expect(run('arn:aws:sns:us-east-1:111122223333:topic-a', '10')).toBe(true);
    expect(run('arn:aws:sns:us-east-1:111122223333:topic-a', '11')).toBe(false);
    expect(run('arn:aws:sns:us-east-1:444455556666:topic-a', '1')).toBe(false);
  });
});

describe('role trust policies and sts:AssumeRole', () => {
  const roleArn = `arn:aws:iam::${ACCOUNT}:role/analyst`;
  const trust = (principal: unknown, condition?: unknown) =>
    doc(
      [
        {
          Effect: 'Allow',
          Principal: principal,
          Action: 'sts:AssumeRole',
          ...(condition ? { Condition: condition } : {}),
        },
      ],
      'trust',
    );
  const deployer = assumedRoleCaller(`arn:aws:iam::${ACCOUNT}:role/deployer`, 'lab');
  const none = new RequestContext();

  test('a trust policy naming the role lets its sessions assume without an identity-based allow', () => {
    const decision = evaluateAssumeRole(
      deployer,
      { arn: roleArn, trustPolicy: trust({ AWS: `arn:aws:iam::${ACCOUNT}:role/deployer` }) },
      [],
      none,
    );
    expect(decision.allowed).toBe(true);
  });

  test("a trust policy naming only the account needs the caller's identity-based policy to allow sts:AssumeRole", () => {
    const role = { arn: roleArn, trustPolicy: trust({ AWS: `arn:aws:iam::${ACCOUNT}:root` }) };
    expect(evaluateAssumeRole(deployer, role, [], none)).toEqual({ allowed: false, reason: 'implicit-deny' });
    const mayAssume = doc([{ Effect: 'Allow', Action: 'sts:AssumeRole', Resource: roleArn }], 'identity');
    expect(evaluateAssumeRole(deployer, role, [mayAssume], none).allowed).toBe(true);
  });

  test('a principal the trust policy does not name is refused whatever its own policy says', () => {
    const other = assumedRoleCaller(`arn:aws:iam::${ACCOUNT}:role/other`, 's');
    const admin = doc([{ Effect: 'Allow', Action: '*', Resource: '*' }], 'admin');
    const decision = evaluateAssumeRole(
      other,
      { arn: roleArn, trustPolicy: trust({ AWS: `arn:aws:iam::${ACCOUNT}:role/deployer` }) },
      [admin],
      none,
    );
    expect(decision.allowed).toBe(false);
  });

  test('a service principal, with the confused-deputy condition the stacks use', () => {
    const role = {
      arn: roleArn,
      trustPolicy: trust(
        { Service: 'states.amazonaws.com' },
        { StringEquals: { 'aws:SourceAccount': ACCOUNT } },
      ),
    };
    const states = serviceCaller('states.amazonaws.com');
    expect(
      evaluateAssumeRole(states, role, [], new RequestContext({ 'aws:SourceAccount': ACCOUNT })).allowed,
    ).toBe(true);
    expect(evaluateAssumeRole(states, role, [], none).allowed).toBe(false);
    expect(evaluateAssumeRole(serviceCaller('lambda.amazonaws.com'), role, [], none).allowed).toBe(false);
  });
});

describe('what the evaluator does not implement is refused, never guessed', () => {
  test('an operator it does not implement refuses the requests its statement could apply to, naming the operator', () => {
    const policy = doc([
      {
        Effect: 'Allow',
        Action: 's3:GetObject',
        Resource: '*',
        Condition: { DateGreaterThan: { 'aws:CurrentTime': '2020-01-01T00:00:00Z' } },
      },
      { Effect: 'Allow', Action: 's3:ListBucket', Resource: '*' },
    ]);
    const decision = ask(user('a'), 's3:GetObject', 'arn:aws:s3:::b/k', [policy]);
    expect(decision).toMatchObject({ allowed: false, reason: 'not-understood' });
    expect(
      accessDeniedMessage(
        user('a'),
        's3:GetObject',
        'arn:aws:s3:::b/k',
        decision as Exclude<Decision, { allowed: true }>,
      ),
    ).toContain('condition operator DateGreaterThan is not implemented');
    // A request the statement cannot apply to is decided as usual.
    expect(ask(user('a'), 's3:ListBucket', 'arn:aws:s3:::b', [policy]).allowed).toBe(true);
  });

  test('an element IAM does not define makes the whole document not understood', () => {
    const policy = parsePolicyDocument(
      { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Ressource: '*' }] },
      'typo',
    );
    expect(ask(user('a'), 's3:GetObject', 'arn:aws:s3:::b/k', [policy])).toMatchObject({
      reason: 'not-understood',
      detail: expect.stringContaining('element "Ressource"'),
    });
  });

  test('a policy variable is not substituted but refused', () => {
    const policy = doc([
      { Effect: 'Allow', Action: 's3:*', Resource: 'arn:aws:s3:::home/${aws:username}/*' },
    ]);
    expect(ask(user('a'), 's3:GetObject', 'arn:aws:s3:::home/a/x', [policy])).toMatchObject({
      reason: 'not-understood',
    });
  });

  test('an explicit deny still wins over a statement it does not understand', () => {
    const policy = doc([
      {
        Effect: 'Allow',
        Action: '*',
        Resource: '*',
        Condition: { IpAddress: { 'aws:SourceIp': '203.0.113.0/24' } },
      },
      { Effect: 'Deny', Action: 's3:*', Resource: '*' },
    ]);
    expect(ask(user('a'), 's3:GetObject', 'arn:aws:s3:::b/k', [policy])).toMatchObject({
      reason: 'explicit-deny',
    });
  });
});

describe('access denied messages', () => {
  const caller = assumedRoleCaller(`arn:aws:iam::${ACCOUNT}:role/analyst`, 'lab');
  test('implicit and explicit, as the IAM User Guide writes them', () => {
    expect(
      accessDeniedMessage(
        caller,
        'firehose:PutRecordBatch',
        'arn:aws:firehose:us-east-1:111122223333:deliverystream/s',
        { allowed: false, reason: 'implicit-deny' },
      ),
    ).toBe(
      'User: arn:aws:sts::111122223333:assumed-role/analyst/lab is not authorized to perform: firehose:PutRecordBatch on resource: arn:aws:firehose:us-east-1:111122223333:deliverystream/s because no identity-based policy allows the firehose:PutRecordBatch action',
    );
    expect(
      accessDeniedMessage(
        caller,
        's3:GetObject',
        'arn:aws:s3:::b/k',
        { allowed: false, reason: 'explicit-deny', policyType: 'resource-based', source: 'x' },
        { quoteResource: true },
      ),
    ).toBe(
      'User: arn:aws:sts::111122223333:assumed-role/analyst/lab is not authorized to perform: s3:GetObject on resource: "arn:aws:s3:::b/k" with an explicit deny in a resource-based policy',
    );
  });
});
