// What one run of the lab used of each AWS service, as measured (experiments/run-usage.ts measures it; the cost
// estimate prices it). Each figure says where it came from where that is not obvious.

export interface AthenaQueryUse {
  workgroup: string;
  /** SUCCEEDED, FAILED, CANCELLED (Athena bills succeeded and cancelled queries for what they scanned). */
  state: string;
  bytesScanned: number;
  /** DDL, DML, UTILITY (Athena does not bill DDL). */
  statementType?: string;
}

export interface CompactionUse {
  /** S3 Tables prices compaction by strategy. */
  strategy: 'binpack' | 'sort';
  commits: number;
  /** Data and delete files the compactions read (their inputs). */
  objects: number;
  bytes: number;
}

export interface BucketUse {
  /** What the bucket holds for the lab. */
  role: string;
  /** What it holds at the end of the run (earlier runs' objects too: they are stored while this one runs). */
  objects: number;
  bytes: number;
  /** Objects this run wrote (last modified at or after its start): its PUTs, not an earlier run's. */
  written: number;
}

export interface SnapshotRunUse {
  stateTransitions: number;
  lambdaInvocations: number;
  /** Wall time of the execution: the Lambdas run one after the other inside it, so they take no longer. */
  lambdaMs: number;
  /**
   * Bytes scanned by each of its Athena queries (each is billed at least Athena's minimum); null when the workgroups'
   * query history could not be read (the Lambdas' queries are only there): not measured, not none.
   */
  queryBytes: number[] | null;
  /** Objects it wrote to the snapshot bucket. */
  objectsWritten: number;
}

export interface RunUsage {
  /** Hours from the run's start to its end (storage and monthly fees accrue by the hour). */
  wallHours: number;
  firehose: { records: number; bytes: number };
  athena: {
    /** "query history": the workgroups' own history (every query, the Lambdas' too); or the lab's own record. */
    source: string;
    queries: AthenaQueryUse[];
  };
  /**
   * The table bucket at the end of the run, and what this run wrote to it: commits and compactions made at or after
   * the run's start (a data folder or bucket keeps earlier runs' commits in the tables' history).
   */
  tables: {
    source: string;
    objects: number;
    bytes: number;
    /** This run's commits other than compactions (those write data, delete and metadata files). */
    commits: number;
    /** Objects those commits wrote: their data and delete files and three metadata files each. */
    objectsWritten: number;
    /** This run's queries that read data files (the GET line's multiplier). */
    queriesReadingData: number;
    compaction: CompactionUse[];
  };
  /** General purpose buckets (Firehose's error output, the published snapshots). */
  buckets: BucketUse[];
  alarms: { count: number; source: string };
  /**
   * The snapshot handlers' custom metrics (EMF). CloudWatch meters a custom metric only in the hours it is sent, so
   * what is billed is metric-hours: for each metric, the clock hours in which an execution that sent it ran. null
   * where they were not seen (on AWS they reach CloudWatch through the logs; locally, without the daily snapshot).
   */
  customMetrics: {
    count: number | null;
    /** Metric-hours this run sent. */
    metricHours: number | null;
    /** Metric-hours of the one daily execution (what a day left running sends). */
    dailyMetricHours: number | null;
    source: string;
  };
  /** E-mail notifications (alarms, the snapshot pipeline's failure alert). */
  notifications: number;
  /** The daily snapshot, when it ran: all of its executions, and the one that published (a day's run). */
  snapshots?: {
    executions: number;
    memoryMb: number;
    all: Omit<SnapshotRunUse, 'queryBytes' | 'objectsWritten'>;
    daily: SnapshotRunUse;
  };
}
