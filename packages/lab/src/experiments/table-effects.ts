// Which parts of the lake each experiment's figures depend on, and which parts it changes. The lab runs the
// experiments in the articles' order, so each row measures the lake as the steps before it left it. `pnpm lab run
// <names>` continues a lake; it refuses a row whose inputs a step at or after it in that order has changed since (its
// figures would measure those changes, not the article's step), and a row whose inputs hold data the lab did not
// write. Nothing is re-prepared behind the user's back: the refusal says what to run instead.
import type { LabResources } from '../target/resources';
import type { ForeignData } from '../target/local-lake';

/** Parts of the lake, as the figures see them. */
export type LakePart =
  /** The flow table's current rows and files. */
  | 'flows'
  /** The flow table's older snapshots (time travel to them; snapshot expiry removes them). */
  | 'flows-history'
  /** ref.host_inventory and ref.known_bad_ips. */
  | 'ref'
  /** enriched.vpc_flow_logs_labelled. */
  | 'enriched'
  /** The daily snapshot's table and files. */
  | 'snapshot';

export interface TableEffects {
  /** What the row's figures measure, as the lab's earlier steps left it. */
  readonly dependsOn: readonly LakePart[];
  /** What the experiment writes. */
  readonly changes: readonly LakePart[];
}

/** Every experiment of the registry, in the lab's order (registry.test checks both). */
export const TABLE_EFFECTS: Readonly<Record<string, TableEffects>> = {
  // Counts the commits of a load into an empty table.
  load: { dependsOn: ['flows'], changes: ['flows'] },
  // FOR VERSION AS OF the smoke test's snapshot: later appends do not change it, expiry does.
  'time-travel': { dependsOn: ['flows-history'], changes: [] },
  'add-columns': { dependsOn: ['flows'], changes: ['flows'] },
  // The scanner's rows and the main load's three files.
  delete: { dependsOn: ['flows'], changes: ['flows'] },
  'top-rejected': { dependsOn: ['flows'], changes: ['flows'] },
  // FOR TIMESTAMP AS OF the instant before the DELETE.
  undo: { dependsOn: ['flows-history'], changes: [] },
  compaction: { dependsOn: ['flows'], changes: ['flows'] },
  // $snapshots grouped by operation: the whole of Part 1's history.
  snapshots: { dependsOn: ['flows', 'flows-history'], changes: [] },
  'ref-tables': { dependsOn: ['ref'], changes: ['ref'] },
  merge: { dependsOn: ['ref'], changes: ['ref'] },
  'merge-duplicate': { dependsOn: ['ref'], changes: [] },
  'join-as-of-now': { dependsOn: ['flows', 'ref'], changes: [] },
  'labels-at-load-time': { dependsOn: ['flows', 'ref', 'enriched'], changes: ['enriched'] },
  'change-feed': { dependsOn: ['flows', 'ref', 'enriched'], changes: ['flows', 'enriched'] },
  // The same question on the flow table and on the enriched table: they must hold the same flows.
  'one-hour': { dependsOn: ['flows', 'enriched'], changes: [] },
  // Counts what its own batch did (rows landed, error output, the alarm), whatever the table held.
  'bad-records': { dependsOn: [], changes: ['flows'] },
  // A property commit and refused commits: metadata only, rows unchanged.
  'rest-endpoint': { dependsOn: [], changes: [] },
  // icebird and Athena on the same current table.
  'laptop-client': { dependsOn: [], changes: [] },
  // Stored bytes before and after the sorted compaction of what Part 1 left.
  'sort-order': { dependsOn: ['flows'], changes: ['flows'] },
  // The DELETE's instant inside the window, then expiry.
  'undo-window': { dependsOn: ['flows-history'], changes: ['flows-history'] },
  'tag-cleanup': { dependsOn: ['flows', 'flows-history'], changes: ['flows', 'flows-history'] },
  // Analyst and deployer asked the same question on the same tables; the probe table is dropped again.
  'analyst-role': { dependsOn: [], changes: [] },
  // No complete day until it sends one, then the snapshot of that day.
  'daily-snapshot': { dependsOn: ['flows', 'snapshot'], changes: ['flows', 'snapshot'] },
};

/** The experiments' names in the lab's order, without loading them (the CLI's help lists them). */
export const EXPERIMENT_NAMES: readonly string[] = Object.keys(TABLE_EFFECTS);

const PART_WORDS: Record<LakePart, string> = {
  flows: 'the flow table',
  'flows-history': "the flow table's older snapshots",
  ref: 'the ref tables',
  enriched: 'the enriched table',
  snapshot: 'the daily snapshot',
};

/** The lake's parts a foreign data file's owner (a table or bucket address) belongs to. */
export function partsOf(where: string, resources: Pick<LabResources, 'namespace' | 'table'>): LakePart[] {
  if (where === `${resources.namespace}.${resources.table}`) return ['flows'];
  if (where.startsWith('ref.')) return ['ref'];
  if (where.startsWith('enriched.')) return ['enriched'];
  if (where.startsWith('s3://') && where.includes('snapshots')) return ['snapshot'];
  return [];
}

export interface RunRefusal {
  experiment: string;
  reason: string;
}

/**
 * Why each of `requested` (run in that order on a lake whose `history` is given) would measure something else than
 * the lab's step, or nothing when all may run. `order` is the lab's order of experiments.
 */
export function refuseStaleRows(
  requested: readonly string[],
  history: readonly string[],
  order: readonly string[],
  foreign: readonly ForeignData[] = [],
  resources: Pick<LabResources, 'namespace' | 'table'> = { namespace: 'network', table: 'vpc_flow_logs' },
): RunRefusal[] {
  const refusals: RunRefusal[] = [];
  const ran = [...history];
  const foreignParts = new Map<LakePart, ForeignData[]>();
  for (const f of foreign)
    for (const part of partsOf(f.where, resources))
      foreignParts.set(part, [...(foreignParts.get(part) ?? []), f]);
  for (const name of requested) {
    const effects = TABLE_EFFECTS[name];
    if (!effects) continue;
    const position = order.indexOf(name);
    const reasons: string[] = [];
    for (const part of effects.dependsOn) {
      const changedBy = [
        ...new Set(
          ran.filter(
            (other) => order.indexOf(other) >= position && TABLE_EFFECTS[other]?.changes.includes(part),
          ),
        ),
      ];
      if (changedBy.length > 0)
        reasons.push(
          `${PART_WORDS[part]} was changed since by ${changedBy.join(', ')} (${changedBy.length === 1 && changedBy[0] === name ? 'its own earlier run' : `at or after ${name} in the lab's order`})`,
        );
      const alien = foreignParts.get(part);
      if (alien)
        reasons.push(
          `${PART_WORDS[part]} holds data the lab did not write (${alien.map((f) => `${f.where}: ${f.files} files`).join(', ')})`,
        );
    }
    if (reasons.length > 0) refusals.push({ experiment: name, reason: reasons.join('; ') });
    ran.push(name);
  }
  return refusals;
}
