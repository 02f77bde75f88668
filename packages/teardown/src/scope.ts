// What "this lab's resources" means: every name the stacks give carries `<prefix>-<labId>` (or, for Glue names
// that forbid hyphens, `<prefix>_<labId>`). The verifier lists by that, so it also finds what a half-finished
// deploy or a renamed unit left behind. The region-level S3 Tables integration (the `s3tablescatalog` catalog, the
// Lake Formation registration of `bucket/*` and its data-access role) is shared by every lab and is not in scope.
export interface LabScope {
  readonly labId: string;
  /** `<prefix>-<labId>`, e.g. "loglake-01". */
  readonly namePrefix: string;
  readonly region: string;
}

export function belongsToLab(name: string | undefined, scope: LabScope): boolean {
  if (!name) return false;
  return name.startsWith(scope.namePrefix) || name.startsWith(scope.namePrefix.replaceAll('-', '_'));
}
