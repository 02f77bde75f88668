// The Athena workgroup the snapshot Lambdas query in, defined once: the snapshots stack declares it for Terraform
// and the local lab creates it through the Athena API. Pure: no SDK, no cdktf.
//
// Why a workgroup of its own: the daily CTAS writes each run under its own prefix with `external_location`, and
// Athena fails such a CTAS in a workgroup that overrides client-side settings ("If the workgroup in which a query
// will run is configured with an enforced query results location, do not specify an external_location for the CTAS
// query. Athena issues an error and fails a query that specifies an external_location in this case." — Athena User
// Guide, "Considerations and limitations for CTAS queries"). The lab's analyst workgroup enforces its settings, so
// the Lambdas get this one: it does not enforce, keeps query results in the snapshot bucket (a documented S3
// location, not Athena-managed results, whose interplay with external_location AWS does not document), and has its
// own per-query cutoff.

/** Where the workgroup keeps query results, inside the snapshot bucket. */
export const QUERY_RESULTS_PREFIX = 'athena-results/';

/** Default per-query cutoff: the CTAS reads one day of the source; a runaway scan stops at 10 GiB. */
export const DEFAULT_SNAPSHOT_CUTOFF_BYTES = 10 * 1024 ** 3;

export const ATHENA_ENGINE_VERSION = 'Athena engine version 3';

export interface SnapshotWorkGroupShape {
  readonly name: string;
  readonly description: string;
  /** false: a CTAS may set external_location (see above). */
  readonly enforceWorkGroupConfiguration: false;
  readonly bytesScannedCutoffPerQuery: number;
  /** `s3://<snapshot bucket>/athena-results/`. */
  readonly outputLocation: string;
  readonly engineVersion: string;
}

/** The workgroup `name` with results in the snapshot bucket `bucket` (a name, or a Terraform reference to one). */
export function snapshotWorkGroupShape(
  name: string,
  bucket: string,
  bytesScannedCutoffPerQuery: number = DEFAULT_SNAPSHOT_CUTOFF_BYTES,
): SnapshotWorkGroupShape {
  return {
    name,
    description: `Daily snapshot queries (CTAS with external_location): results in the snapshot bucket, at most ${bytesScannedCutoffPerQuery} bytes scanned per query`,
    enforceWorkGroupConfiguration: false,
    bytesScannedCutoffPerQuery,
    outputLocation: `s3://${bucket}/${QUERY_RESULTS_PREFIX}`,
    engineVersion: ATHENA_ENGINE_VERSION,
  };
}
