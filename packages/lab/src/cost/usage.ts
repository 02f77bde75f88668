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
  objects: number;
  bytes: number;
}

export interface SnapshotRunUse {
  stateTransitions: number;
  lambdaInvocations: number;
  /** Wall time of the execution: the Lambdas run one after the other inside it, so they take no longer. */
  lambdaMs: number;
  /** Bytes scanned by each of its Athena queries (each is billed at least Athena's minimum). */
  queryBytes: number[];
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
  /** The table bucket at the end of the run, and what was written to it. */
  tables: {
    source: string;
    objects: number;
    bytes: number;
    /** Commits other than compactions (those write data, delete and metadata files). */
    commits: number;
    /** Objects those commits wrote: their data and delete files and three metadata files each. */
    objectsWritten: number;
    /** Queries that read data files (for the GET requests' upper bound). */
    queriesReadingData: number;
    compaction: CompactionUse[];
  };
  /** General purpose buckets (Firehose's error output, the published snapshots). */
  buckets: BucketUse[];
  alarms: { count: number; source: string };
  customMetrics: { count: number; source: string };
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
