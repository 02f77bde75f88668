// What "this lab's resources" means: every name the stacks give carries `<prefix>-<labId>` (or, for Glue names
// that forbid hyphens, `<prefix>_<labId>`). The verifier lists by that, so it also finds what a half-finished
// deploy or a renamed unit left behind.
export interface LabScope {
  readonly labId: string;
  /** `<prefix>-<labId>`, e.g. "loglake-01". */
  readonly namePrefix: string;
  readonly region: string;
  /** Whether the lab created the account-wide s3tablescatalog (then it must be gone too). */
  readonly glueCatalogManaged: boolean;
}

export function belongsToLab(name: string | undefined, scope: LabScope): boolean {
  if (!name) return false;
  return name.startsWith(scope.namePrefix) || name.startsWith(scope.namePrefix.replaceAll('-', '_'));
}
