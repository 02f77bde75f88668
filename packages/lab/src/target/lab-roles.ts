// The roles the lab acts as, read from the stacks' outputs: shared by the local target (synthesized outputs) and
// the AWS target (deployed outputs), kept apart from the synthesis code the AWS target does not need.

/** The roles the lab acts as besides the deployer (ARNs from the stacks' outputs; absent when a unit is). */
export interface LabRoles {
  /** table-bucket's lab role: the lab's SQL runs as it (it holds the Lake Formation grants). */
  readonly lab?: string;
  readonly firehose?: string;
  readonly analyst?: string;
  readonly resolveWatermark?: string;
  readonly buildSnapshot?: string;
}

/** The lab's roles from stack outputs (synthesized locally, deployed on AWS): `{ stack: { output: value } }`. */
export function labRoles(
  outputs: Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>,
): LabRoles {
  const text = (stack: string, output: string) => {
    const value = outputs[stack]?.[output];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const roles = {
    lab: text('table-bucket', 'lab_role_arn'),
    firehose: text('firehose', 'role_arn'),
    analyst: text('analyst', 'role_arn'),
    resolveWatermark: text('snapshots', 'resolve_watermark_role_arn'),
    buildSnapshot: text('snapshots', 'build_snapshot_role_arn'),
  };
  return Object.fromEntries(Object.entries(roles).filter(([, v]) => v !== undefined)) as LabRoles;
}
