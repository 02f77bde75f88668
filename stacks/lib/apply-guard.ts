// A configuration that may be planned but never applied (synthesized for a plan while something an apply needs is
// missing): a guard whose precondition Terraform can only decide at apply — it reads the id of a marker that is new
// on every run, unknown until then — and that fails there. Everything else in the stack depends on the guard, so an
// apply stops before it creates anything. The same device keeps mock outputs out of an apply (./upstream.ts).
import type { Construct } from 'constructs';
import { TerraformData } from './terraform-data';

/** Never equal to a terraform_data id (a UUID). */
const NEVER = 'this configuration is not to be applied';

export interface ApplyGuard {
  /** What everything else depends on. */
  readonly guard: TerraformData;
  /** What the guard reads (it must not depend on the guard). */
  readonly marker: TerraformData;
}

export function refuseAtApply(scope: Construct, id: string, message: string): ApplyGuard {
  const marker = new TerraformData(scope, `${id}-marker`, {
    triggersReplace: { synthesized_for_plan: '${timestamp()}' },
  });
  marker.overrideLogicalId(`${id.replaceAll('-', '_')}_marker`);
  const guard = new TerraformData(scope, id, {
    input: { reason: message },
    lifecycle: {
      precondition: [{ condition: `\${${marker.fqn}.id == "${NEVER}"}`, errorMessage: message }],
    },
  });
  guard.overrideLogicalId(id.replaceAll('-', '_'));
  return { guard, marker };
}
