// Inputs of the ref-data unit: the namespaces Terraform owns while SQL owns the tables in them. Pure.
import type { InputsSpec, UnitContext } from '../lib/contract';
import { FieldReader, IDENT_RE } from '../lib/fields';
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
    const namespaces = r.strings('namespaces', ['ref', 'enriched', 'lab'], {
      re: IDENT_RE,
      fix: 'namespaces are lower-case identifiers (a-z, 0-9, _)',
    });
    if (namespaces.length === 0)
      r.fail('namespaces', 'is empty', 'list at least one namespace, e.g. ["ref"]');
    if (new Set(namespaces).size !== namespaces.length)
      r.fail('namespaces', 'has duplicates', 'list each namespace once', namespaces);
    return {
      namespaces,
      dropTablesOnDestroy: r.bool('dropTablesOnDestroy', true),
      labPrincipalArns: readLabPrincipals(r),
      federationWaitSeconds: readFederationWait(r),
    };
  },
};
