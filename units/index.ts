/**
 * @loglake/units — the lab's live tree, resolved. Import freely: no cdktf, no AWS calls, no side effects.
 *
 *   const lab = await resolveLab();            // the one lab (or resolveLab({ labId: '01' }))
 *   lab.units['table-bucket'].inputs.bucketName          // "loglake-01-flow-logs"
 *   lab.units['table-bucket'].inputs.table.columns       // Iceberg schema of network.vpc_flow_logs
 *   lab.units['table-bucket'].inputs.maintenance         // compaction target, min snapshots, max age
 *   lab.units['table-bucket'].inputs.workgroup           // name, bytesScannedCutoffPerQuery, engine version
 *   lab.units.firehose.inputs.streamName / .buffering    // 1 MiB / 60 s
 *   lab.units.firehose.inputs.failedRowsAlarm            // the alarm on DeliveryToIceberg.FailedRowCount
 *   lab.units['ref-data'].inputs.namespaces              // ref, enriched, lab
 *   lab.units.analyst.inputs.namespaces                  // what the read-only analyst role reads
 *   lab.order                                            // deploy order; destroy is the reverse
 *   lab.labUnits / lab.regionalUnits                     // the lab's own units / the region-level ones it uses
 *
 * Each unit also carries its context (path, region, labId, namePrefix, tags, remote state, dependencies).
 * Values merge root.ts → <env>/env.ts → <region>/region.ts → <lab>/lab.ts → <lab>/<unit>.ts, and are validated
 * here, so a bad unit file fails with a message naming the unit, the field and the fix. A new unit is one file in
 * the lab folder plus a catalog entry stacks/<unit>/{inputs,stack}.ts; to type it here, augment UnitInputsByName.
 */
import type {
  AnalystInputs,
  FirehoseInputs,
  RefDataInputs,
  ResolvedUnit,
  S3TablesIntegrationInputs,
  TableBucketInputs,
} from '@loglake/stacks/inputs';
import { UnitsError } from './lib/errors';
import { listLabPaths, loadInputsSpec, loadLabTree, UNITS_DIR } from './lib/load';
import { resolveLabTree, type LabSummary } from './lib/resolve';

// The failed-rows alarm as PutMetricAlarm takes it: the firehose stack deploys it, the local lab creates it.
export { failedRowsAlarmDefinition, type FailedRowsAlarmDefinition } from '@loglake/stacks/inputs';
export type { SnapshotsInputs } from '@loglake/stacks/inputs';
export { listLabPaths } from './lib/load';

/** Typed inputs per known unit. Another unit's module may add itself with `declare module '@loglake/units'`. */
export interface UnitInputsByName {
  'table-bucket': TableBucketInputs;
  firehose: FirehoseInputs;
  'ref-data': RefDataInputs;
  's3tables-integration': S3TablesIntegrationInputs;
  analyst: AnalystInputs;
}

type ResolvedUnits = {
  readonly [K in keyof UnitInputsByName]: ResolvedUnit<UnitInputsByName[K]>;
} & Readonly<Record<string, ResolvedUnit>>;

export interface ResolvedLab extends LabSummary {
  readonly units: ResolvedUnits;
}

interface ResolveLabOptions {
  /** Which lab (two digits); defaults to the only lab in the tree. */
  readonly labId?: string;
  /** Environment consulted for LAB_STATE_BUCKET; defaults to process.env. */
  readonly env?: NodeJS.ProcessEnv;
  readonly unitsDir?: string;
}

export async function resolveLab(options: ResolveLabOptions = {}): Promise<ResolvedLab> {
  const unitsDir = options.unitsDir ?? UNITS_DIR;
  const labs = listLabPaths(unitsDir);
  const wanted =
    options.labId === undefined ? labs : labs.filter((p) => p.split('/')[2]?.startsWith(`${options.labId}-`));
  if (wanted.length !== 1) {
    const choice = labs.map((p) => p.split('/')[2]?.slice(0, 2)).join(', ');
    throw new UnitsError(
      wanted.length === 0
        ? `no lab with id ${options.labId} in units/ (labs: ${choice || 'none'}); pass one of those`
        : `several labs in units/ (${choice}); pass labId`,
      { value: options.labId },
    );
  }
  const tree = await loadLabTree(wanted[0] as string, unitsDir);
  const lab = await resolveLabTree(tree, loadInputsSpec, options.env ?? process.env);
  for (const name of ['table-bucket', 'firehose', 'ref-data'] as const) {
    if (!lab.units[name])
      throw new UnitsError(`lab ${lab.labId} has no unit ${name}; add ${lab.path}/${name}.ts`, {
        value: name,
      });
  }
  if (!lab.units['s3tables-integration'])
    throw new UnitsError(
      `region ${lab.env}/${lab.region} has no unit s3tables-integration (the account's S3 Tables analytics integration, which the lab's units depend on); add units/${lab.env}/${lab.region}/_regional/s3tables-integration.ts`,
      { value: 's3tables-integration' },
    );
  return lab as ResolvedLab;
}
