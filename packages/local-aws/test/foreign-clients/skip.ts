// The foreign-client sessions (AWS CLI, boto3, Terraform) test clients that do not run on Node: CI runs them on one
// of its two Node lines (.ci/run sets LOGLAKE_FOREIGN_CLIENTS=skip on the other). Why they are skipped, or undefined.
export function foreignClientsSkipped(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.LOGLAKE_FOREIGN_CLIENTS === 'skip'
    ? 'LOGLAKE_FOREIGN_CLIENTS=skip (CI runs these sessions on its other Node line)'
    : undefined;
}
