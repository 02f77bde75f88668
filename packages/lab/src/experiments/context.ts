// What every experiment gets: the target, the lab's scale, state carried between experiments (snapshot ids,
// instants), and helpers that run sql/ files and keep a record of what each query read.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { FlowGenerator, type FlowRecord } from '@loglake/flowgen';
import { ExperimentFailedError, LabError } from '../errors';
import { flowRecords, formatAccounting, loadFailed, sendRecords } from '../load/send-flows';
import { tableRowCount, waitForDelivery } from '../load/wait-for-delivery';
import type { LoadReport } from '../load/put-record-batch-loader';
import type { QueryResult } from '@loglake/athena-sql';
import { runNamedQuery, type NamedQueryRun } from '../query/run-named-query';
import type { LabTarget } from '../target/lab-target';

export { DEFAULT_ALARM_WAIT_MS, DEFAULT_WAITS, FULL_SCALE, type LabScale, type LabWaits } from './defaults';
import { DEFAULT_WAITS, type LabScale, type LabWaits } from './defaults';

/** Facts one experiment leaves for the next (persisted, so `pnpm lab run <name>` can continue a lab). */
export interface LabState {
  windowEnd?: string;
  smokeSnapshotId?: string;
  mainLoad?: { jsonBytes: number; commits: number; parquetBytes: number; records: number };
  beforeDelete?: string;
  deletedRows?: number;
  inventoryFirstSnapshot?: string;
  backfillSnapshot?: string;
  changeFeedBurstRows?: number;
  generatorRuns?: number;
  /** The extra day of history the snapshots experiment sent (so a re-run does not send it twice). */
  snapshotHistoryDay?: string;
  /** Local: the lake this state belongs to (the data folder's manifest names the same id). */
  lakeId?: string;
  /** The experiments run on this lake since it was emptied, in the order they started (repeats included). */
  history?: string[];
}

/** The lab's state file cannot be used: unreadable, or written for a lake that is gone. */
export class StateFileError extends LabError {
  override readonly name = 'StateFileError';
}

export interface QueryRecord {
  experiment: string;
  query: string;
  dataScannedInBytes: number;
  ms: number;
  /** The statements as sent (parameters filled in). */
  sql?: string;
}

/** One load through Firehose: what it accepted (what Firehose bills). */
export interface SendRecord {
  experiment: string;
  label: string;
  records: number;
  jsonBytes: number;
}

export interface SnapshotRow {
  committed_at: string;
  snapshot_id: string;
  operation: string;
  [key: string]: string | null;
}

/** An Athena cell as a number; NULL and empty cells read 0. */
export const cellNumber = (v: string | null | undefined): number =>
  v === null || v === undefined || v === '' ? 0 : Number(v);

export class ExperimentContext {
  readonly queries: QueryRecord[] = [];
  readonly sends: SendRecord[] = [];
  current = '';
  /** The run's Ctrl-C (`pnpm lab` owns SIGINT): loads and waits stop at once. */
  signal?: AbortSignal;

  constructor(
    readonly target: LabTarget,
    readonly scale: LabScale,
    readonly state: LabState,
    private readonly statePath: string,
    readonly log: (line: string) => void,
    readonly waits: LabWaits = DEFAULT_WAITS,
  ) {}

  static loadState(path: string): LabState {
    if (!existsSync(path)) return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      // A SyntaxError: cut off (an interrupted write, a full disk) or edited by hand.
      if (!(error instanceof SyntaxError)) throw error;
      throw new StateFileError(
        `${path} is unreadable (${error.message}): it is the lab's record of what earlier experiments left ` +
          '(snapshot ids, instants), cut off or edited. Run the whole lab (`pnpm lab`), which starts a new lake and a ' +
          'new state file, or `pnpm lab reset` to remove both.',
        { value: path, cause: error },
      );
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new StateFileError(
        `${path} is not the lab's state (a JSON object). Run the whole lab (\`pnpm lab\`) or \`pnpm lab reset\`.`,
        { value: path },
      );
    return parsed as LabState;
  }

  saveState(): void {
    mkdirSync(dirname(this.statePath), { recursive: true });
    writeFileSync(this.statePath, `${JSON.stringify(this.state, null, 2)}\n`);
  }

  /** A generator for this step: distinct seeds per run so a re-run sends new flows, not duplicates. */
  generator(): FlowGenerator {
    this.state.generatorRuns = (this.state.generatorRuns ?? 0) + 1;
    return new FlowGenerator({ seed: this.scale.seed * 1000 + this.state.generatorRuns });
  }

  require<K extends keyof LabState>(key: K, producedBy: string): NonNullable<LabState[K]> {
    const value = this.state[key];
    if (value === undefined || value === null) {
      throw new ExperimentFailedError(
        `${this.current} needs ${key}, which the ${producedBy} experiment records. Run \`pnpm lab run ${producedBy}\` first (or the whole lab).`,
        { value: key },
      );
    }
    return value as NonNullable<LabState[K]>;
  }

  async sql(name: string, params: Record<string, string> = {}): Promise<NamedQueryRun> {
    const started = performance.now();
    const run = await runNamedQuery(this.target.athenaTarget(), name, params);
    this.queries.push({
      experiment: this.current,
      query: name,
      dataScannedInBytes: run.dataScannedInBytes,
      ms: Math.round(performance.now() - started),
      sql: run.statements.map((s) => s.sql.trim()).join(';\n\n'),
    });
    return run;
  }

  /** Last statement's result of a query. */
  async result(name: string, params: Record<string, string> = {}): Promise<QueryResult> {
    const run = await this.sql(name, params);
    const last = run.statements[run.statements.length - 1];
    if (!last) throw new ExperimentFailedError(`${name} ran no statement.`, { value: name });
    return last.result;
  }

  /** Rows of a query as objects keyed by column name. */
  async rows(name: string, params: Record<string, string> = {}): Promise<Record<string, string | null>[]> {
    const result = await this.result(name, params);
    return result.rows.map((row) =>
      Object.fromEntries(result.columns.map((c, i) => [c.name, row[i] ?? null])),
    );
  }

  async scalar(name: string, params: Record<string, string> = {}): Promise<number> {
    const result = await this.result(name, params);
    return Number(result.rows[0]?.[0] ?? NaN);
  }

  async snapshots(name = 'network/snapshots'): Promise<SnapshotRow[]> {
    return (await this.rows(name)) as SnapshotRow[];
  }

  /** Keeps what a load through Firehose accepted, for the run's usage (the cost estimate). */
  recordSend(label: string, report: Pick<LoadReport, 'accepted' | 'jsonBytes'>): void {
    this.sends.push({
      experiment: this.current,
      label,
      records: report.accepted,
      jsonBytes: report.jsonBytes,
    });
  }

  /** Sends flows through Firehose and waits until they are delivered; fails the experiment if any were lost. */
  async send(label: string, records: FlowRecord[]): Promise<LoadReport> {
    // On AWS nothing says when Firehose has committed but the table itself: wait for the row count to grow.
    const rowsBefore = this.target.localUrl ? 0 : await tableRowCount(this.target);
    const report = await sendRecords(this.target, flowRecords(records), {
      label,
      progress: true,
      ...(this.signal ? { signal: this.signal } : {}),
    });
    this.recordSend(label, report);
    this.log(`  ${formatAccounting(label, report).split('\n').join('\n  ')}`);
    if (loadFailed(report)) {
      throw new ExperimentFailedError(
        `${label}: ${report.failedForGood + report.notSent} records were not delivered.`,
        { value: report },
      );
    }
    await waitForDelivery(this.target, {
      expectedRows: rowsBefore + report.accepted,
      ...(this.signal ? { signal: this.signal } : {}),
    });
    return report;
  }
}

export interface ExperimentOutcome {
  /** The seed table's "Result" cell, measured. */
  result: string;
  /**
   * Numbers behind the result: the article's figures are compared with them (src/article, after the run), and the
   * JSON report and the benchmark keep them.
   */
  measures: Record<string, number | string>;
  /**
   * Checks only the experiment can compute (pure functions of facts it does not keep in measures, each tested with a
   * contradicting fact); the others are judged from the measures in src/article.
   */
  checks: Record<string, boolean>;
  /** Itemized outcomes, shown under the result in the report (e.g. each refusal with its error). */
  details?: { label: string; text: string }[];
}

export interface Experiment {
  name: string;
  /** The seed table's "Experiment" cell. */
  title: string;
  /** When the title names the lab's size (the load), how it reads at this scale. */
  titleAt?(scale: LabScale): string;
  /** Which article: 1 and 2 (Iceberg on S3 Tables), 3 (daily snapshots). */
  part: 1 | 2 | 3;
  /** Expires snapshots: the report's timeline is read before it runs too, so it keeps the commits it expires. */
  expiresSnapshots?: boolean;
  run(ctx: ExperimentContext): Promise<ExperimentOutcome>;
}
