// Inputs of the ref-data unit: the namespaces Terraform owns while SQL owns the tables in them. Pure.
import type { InputsSpec, UnitContext } from '../lib/contract';
import { FieldReader, readNamespaces } from '../lib/fields';
import { readFederationWait, readLabPrincipals } from '../table-bucket/inputs';

export interface RefDataInputs {
  /** `ref` (inventory, bad IPs), `enriched` (labelled flows), `lab` (experiments). */
  readonly namespaces: readonly string[];
  /** Drop the SQL-created tables of each namespace right before Terraform deletes it (S3 Tables refuses otherwise). */
  readonly dropTablesOnDestroy: boolean;
  /** Principals that run the lab's SQL besides the deployer (the lab level sets them for every unit). */
  readonly labPrincipalArns: readonly string[];
  /** How long apply waits, at most, for each new namespace to surface in s3tablescatalog before granting on it. */
  readonly federationWaitSeconds: number;
}

export const REF_DATA_OUTPUTS = ['namespaces'] as const;

export const spec: InputsSpec<RefDataInputs> = {
  stack: 'ref-data',
  outputs: REF_DATA_OUTPUTS,
  resolveInputs(raw, unit: UnitContext): RefDataInputs {
    const r = new FieldReader(unit.name, raw);
    const namespaces = readNamespaces(r, ['ref', 'enriched', 'lab'], '["ref"]');
    return {
      namespaces,
      dropTablesOnDestroy: r.bool('dropTablesOnDestroy', true),
      labPrincipalArns: readLabPrincipals(r),
      federationWaitSeconds: readFederationWait(r),
    };
  },
};
