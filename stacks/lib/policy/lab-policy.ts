// The lab policy as a cdktf Aspect: at synth, each stack's resolved resources go through the rules; a violation is
// an error annotation on the offending construct, which makes `cdktf synth` fail.
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
import {
  checkBuckets,
  checkIam,
  checkNames,
  checkTags,
  checkWorkgroups,
  type ProviderView,
  type ResourceView,
} from './rules';

export interface LabPolicyProps {
  readonly namePrefix: string;
  readonly requiredTags?: readonly string[];
}

const resolveIn = (scope: TerraformStack, value: unknown): unknown =>
  Tokenization.resolve(value, {
    scope,
    preparing: false,
    resolver: new DefaultTokenResolver(new StringConcat()),
  });

export class LabPolicy implements IAspect {
  readonly violations: string[] = [];
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
    const ctx = {
      namePrefix: this.props.namePrefix,
      requiredTags: this.props.requiredTags ?? ['lab', 'unit', 'managed-by'],
    };
    const found = [
      ...checkBuckets(resources),
      ...checkIam(resources),
      ...checkTags(providers, resources, ctx),
      ...checkWorkgroups(resources),
      ...checkNames(resources, ctx),
    ];
    for (const message of found) {
      const id = message.split(' ')[0] ?? '';
      const culprit = resources.find((r) => id === `${r.type}.${r.id}`)?.node ?? node;
      this.violations.push(`${node.node.id}: ${message}`);
      Annotations.of(culprit).addError(`lab policy: ${message}`);
    }
  }
}
