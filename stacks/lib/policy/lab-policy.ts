// The lab policy as a cdktf Aspect: at synth, each stack's resolved resources go through the rules; a violation is
// an error annotation on the offending construct, which makes `cdktf synth` fail. cdktf invokes aspects from each
// stack down (aspects on the App are not inherited), so the policy is added to every stack (stacks/app.ts).
import {
  Annotations,
  DefaultTokenResolver,
  StringConcat,
  TerraformProvider,
  TerraformResource,
  TerraformStack,
  Tokenization,
  type IAspect,
} from 'cdktf';
import type { IConstruct } from 'constructs';
import type { TfCommand } from '../contract';
import { LabStack } from '../lab-stack';
import {
  checkAlertSubscriptions,
  checkBuckets,
  checkIam,
  checkNames,
  checkTags,
  checkTrustPolicies,
  checkWorkgroups,
  isStrictCommand,
  type Finding,
  type ProviderView,
  type ResourceView,
} from './rules';

export interface LabPolicyProps {
  /** Name prefix for stacks that are not unit stacks (a unit stack uses its unit's prefix). */
  readonly namePrefix: string;
  readonly requiredTags?: readonly string[];
  /**
   * The command the synth is for (LOGLAKE_TF_COMMAND). Rules about what apply would create (a placeholder alert
   * address) are errors for apply and for an unannounced command (a plain `cdktf deploy`), warnings otherwise: a
   * plan may show them, and a destroy or an output read must never be blocked by them.
   */
  readonly command?: TfCommand;
}

/** Tag keys a region-level unit carries (it belongs to no lab, so no `lab` tag). */
const REGION_TAGS = ['unit', 'managed-by'];

const resolveIn = (scope: TerraformStack, value: unknown): unknown =>
  Tokenization.resolve(value, {
    scope,
    preparing: false,
    resolver: new DefaultTokenResolver(new StringConcat()),
  });

export class LabPolicy implements IAspect {
  readonly violations: string[] = [];
  readonly warnings: string[] = [];
  constructor(private readonly props: LabPolicyProps) {}

  visit(node: IConstruct): void {
    if (!(node instanceof TerraformStack)) return;
    const resources: Array<ResourceView & { node: IConstruct }> = [];
    const providers: ProviderView[] = [];
    for (const child of node.node.findAll()) {
      if (child instanceof TerraformResource) {
        const json = resolveIn(node, child.toTerraform()) as {
          resource: Record<string, Record<string, Record<string, unknown>>>;
        };
        for (const [type, byId] of Object.entries(json.resource)) {
          for (const [id, attrs] of Object.entries(byId)) resources.push({ type, id, attrs, node: child });
        }
      } else if (child instanceof TerraformProvider && child.terraformResourceType === 'aws') {
        const json = resolveIn(node, child.toTerraform()) as {
          provider: { aws: Array<{ default_tags?: Array<{ tags?: Record<string, string> }> }> };
        };
        providers.push({ defaultTags: json.provider.aws[0]?.default_tags?.[0]?.tags ?? {} });
      }
    }
    const region = node instanceof LabStack && node.unit.level === 'region';
    const ctx = {
      namePrefix: node instanceof LabStack ? node.unit.namePrefix : this.props.namePrefix,
      requiredTags: this.props.requiredTags ?? (region ? REGION_TAGS : ['lab', 'unit', 'managed-by']),
    };
    const strict = isStrictCommand(this.props.command);
    const errors = (messages: string[]): Finding[] =>
      messages.map((message) => ({ message, severity: 'error' }));
    const found: Finding[] = [
      ...errors(checkBuckets(resources)),
      ...errors(checkIam(resources)),
      ...errors(checkTrustPolicies(resources)),
      ...errors(checkTags(providers, resources, ctx)),
      ...errors(checkWorkgroups(resources)),
      ...errors(checkNames(resources, ctx)),
      ...checkAlertSubscriptions(resources, strict),
    ];
    for (const { message, severity } of found) {
      const id = message.split(' ')[0] ?? '';
      const culprit = resources.find((r) => id === `${r.type}.${r.id}`)?.node ?? node;
      if (severity === 'error') {
        this.violations.push(`${node.node.id}: ${message}`);
        Annotations.of(culprit).addError(`lab policy: ${message}`);
      } else {
        this.warnings.push(`${node.node.id}: ${message}`);
        Annotations.of(culprit).addWarning(`lab policy: ${message}`);
      }
    }
  }
}
