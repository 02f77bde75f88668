// Keeps the published run plus the newest `runsToKeep - 1` others under `<bucket>/<target>/run=…/`; deletes the
// rest. The run just replaced by a publish is always among those kept (runsToKeep >= 2), so a query that
// planned against the previous location a moment ago still finds its files.
import { type S3Client, ListObjectsV2Command, DeleteObjectsCommand } from '@aws-sdk/client-s3';
import { SnapshotError } from './errors';

export interface RunPrefix {
  prefix: string;
  watermark: string;
  runId: string;
}

const RUN = /^(.+\/)?run=(\d{4}-\d{2}-\d{2})-([a-z0-9-]+)\/$/;

export function parseRunPrefix(prefix: string): RunPrefix | null {
  const m = RUN.exec(prefix);
  return m ? { prefix, watermark: m[2] as string, runId: m[3] as string } : null;
}

export async function listRuns(s3: S3Client, bucket: string, target: string): Promise<RunPrefix[]> {
  const runs: RunPrefix[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({
        Bucket: bucket,
        Prefix: `${target}/run=`,
        Delimiter: '/',
        ContinuationToken: token,
      }),
    );
    for (const p of page.CommonPrefixes ?? []) {
      const run = p.Prefix ? parseRunPrefix(p.Prefix) : null;
      if (run) runs.push(run);
    }
    token = page.NextContinuationToken;
  } while (token);
  return runs;
}

/** Which runs to delete: everything but the published one and the newest `runsToKeep - 1` others. */
export function runsToDelete(runs: RunPrefix[], publishedPrefix: string, runsToKeep: number): RunPrefix[] {
  const others = runs
    .filter((r) => r.prefix !== publishedPrefix)
    // Run ids start with a sortable build time, so (watermark, runId) orders runs oldest → newest.
    .sort((a, b) =>
      a.watermark === b.watermark ? a.runId.localeCompare(b.runId) : a.watermark.localeCompare(b.watermark),
    );
  return others.slice(0, Math.max(0, others.length - (runsToKeep - 1)));
}

export async function deleteRun(s3: S3Client, bucket: string, prefix: string): Promise<number> {
  let deleted = 0;
  // List again after each batch instead of paginating: the listing shrinks as we delete.
  for (;;) {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, MaxKeys: 1000 }));
    const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
    if (keys.length === 0) return deleted;
    const out = await s3.send(
      new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }),
    );
    if (out.Errors && out.Errors.length > 0) {
      const first = out.Errors[0];
      throw new SnapshotError(
        `Could not delete ${out.Errors.length} object(s) of s3://${bucket}/${prefix}, e.g. ${first?.Key}: ${first?.Message}. Check the Lambda role's s3:DeleteObject grant.`,
        { value: { bucket, prefix, errors: out.Errors.slice(0, 5) } },
      );
    }
    deleted += keys.length;
  }
}
