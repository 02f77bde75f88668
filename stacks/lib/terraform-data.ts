// terraform_data without cdktf's DataResource: that class adds a synth-time validation which shells out to
// `terraform version` (once per resource, ~0.3 s each) and fails synth outright when no terraform binary is on PATH.
// Synth must work offline and without Terraform; the Terraform version floor lives in required_version instead.
import { TerraformResource, type TerraformResourceConfig } from 'cdktf';
import type { Construct } from 'constructs';

export interface TerraformDataConfig extends Omit<
  TerraformResourceConfig,
  'terraformResourceType' | 'terraformGeneratorMetadata'
> {
  readonly input?: Record<string, unknown>;
  readonly triggersReplace?: Record<string, unknown>;
}

export class TerraformData extends TerraformResource {
  static readonly tfResourceType = 'terraform_data';
  private readonly input: Record<string, unknown> | undefined;
  private readonly triggersReplace: Record<string, unknown> | undefined;

  constructor(scope: Construct, id: string, config: TerraformDataConfig = {}) {
    super(scope, id, {
      ...config,
      terraformResourceType: TerraformData.tfResourceType,
      terraformGeneratorMetadata: { providerName: 'terraform' },
    });
    this.input = config.input;
    this.triggersReplace = config.triggersReplace;
  }

  get id(): string {
    return this.getStringAttribute('id');
  }

  protected override synthesizeAttributes(): Record<string, unknown> {
    return { input: this.input, triggers_replace: this.triggersReplace };
  }
}
