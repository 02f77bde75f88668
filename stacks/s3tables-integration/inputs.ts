// Inputs of the s3tables-integration unit (region level): whether the unit creates the account's S3 Tables analytics
// integration or adopts one that exists, the data-access role's name, and how long the create-time checks may take.
// Pure.
import type { InputsSpec, UnitContext } from '../lib/contract';
import { FieldReader } from '../lib/fields';

export type IntegrationMode = 'create' | 'adopt';

export interface S3TablesIntegrationInputs {
  /**
   * create: the unit creates the Glue catalog `s3tablescatalog`, the Lake Formation registration of every table
   * bucket of the region (`…:bucket/*`, with federation) and the role Lake Formation vends credentials with.
   * adopt: the account already has the integration (the S3 console's "Enable integration", another tool); the unit
   * only checks at apply that it is there in Lake Formation mode, and never changes or deletes it.
   */
  readonly mode: IntegrationMode;
  /** Athena and Firehose look for exactly this name. */
  readonly catalogName: string;
  /** The Lake Formation data-access role (create mode). */
  readonly dataAccessRoleName: string;
  /** Run the AWS checks at apply (preflight) and the destroy guard; off only for tests without node. */
  readonly checks: { readonly enabled: boolean };
}

export const S3TABLES_INTEGRATION_OUTPUTS = [
  'glue_catalog_name',
  'federated_resource_arn',
  'integration_mode',
] as const;

export const spec: InputsSpec<S3TablesIntegrationInputs> = {
  stack: 's3tables-integration',
  outputs: S3TABLES_INTEGRATION_OUTPUTS,
  resolveInputs(raw, unit: UnitContext): S3TablesIntegrationInputs {
    const r = new FieldReader(unit.name, raw);
    const mode = r.string('mode', 'create', {
      re: /^(create|adopt)$/,
      fix: "use 'create' (this unit creates the integration) or 'adopt' (the account already has it)",
    }) as IntegrationMode;
    return {
      mode,
      catalogName: r.string('catalogName', 's3tablescatalog', {
        re: /^s3tablescatalog$/,
        fix: 'Athena and Firehose look for "s3tablescatalog"',
      }),
      // IAM role names are unique per account, the unit is per region: the default carries the region.
      dataAccessRoleName: r.string(
        'dataAccessRoleName',
        `${unit.namePrefix}-s3tables-lakeformation-${unit.region}`,
        {
          re: new RegExp(`^${unit.namePrefix}-[A-Za-z0-9+=,.@_-]{1,50}$`),
          fix: `start with "${unit.namePrefix}-" and use IAM role name characters`,
        },
      ),
      checks: { enabled: r.child('checks').bool('enabled', true) },
    };
  },
};
