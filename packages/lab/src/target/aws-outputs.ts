// Names of the deployed lab, read from the outputs file `cdktf deploy --outputs-file` writes:
// { "<stack>": { "<output>": value, ... }, ... }.
import { existsSync, readFileSync } from 'node:fs';
import { TargetNotReadyError } from '../errors';
import { labRoles, type LabRoles } from './lab-roles';

export const DEFAULT_OUTPUTS_FILE = '.lab/cdktf-outputs.json';
/**
 * The command that writes the outputs file after units were deployed one at a time: every unit of the lab, in the
 * lab's order (`resolveLab().order`: the one list; the READMEs print it too, checked by aws-outputs.test), since the
 * file is rewritten whole and the lab reads every stack's outputs from it.
 */
export const outputsCommand = (file: string, units: readonly string[]) =>
  `LOGLAKE_TF_COMMAND=output npx cdktf output ${units.join(' ')} --outputs-file ${file}`;

/** What to run when the outputs are missing: a whole-lab deploy writes them; after per-unit deploys, write them. */
export const DEPLOY_HINT = (file: string, units: readonly string[]) =>
  `Deploy the lab first with \`pnpm lab deploy\` (it writes ${file}); after deploying units one at a time, write ` +
  `the outputs yourself: \`${outputsCommand(file, units)}\` (then run again with --target aws).`;

export interface DeployedNames {
  tableBucketName: string;
  tableBucketArn: string;
  namespace: string;
  table: string;
  workgroup: string;
  streamName: string;
  errorBucketName: string;
  sqlNamespaces: string[];
  /** firehose.failed_rows_alarm_name and table-bucket.alerts_topic_arn: absent from stacks deployed before them. */
  failedRowsAlarmName?: string;
  alertsTopicArn?: string;
  /** Roles from the firehose, analyst and snapshots stacks' outputs (those deployed). */
  roles: LabRoles;
  /** analyst.analyst_workgroup: absent from analyst stacks deployed before it. */
  analystWorkgroup?: string;
}

const REQUIRED = {
  tableBucketName: 'table_bucket_name',
  tableBucketArn: 'table_bucket_arn',
  namespace: 'namespace',
  table: 'table_name',
  workgroup: 'workgroup_name',
  streamName: 'stream_name',
  errorBucketName: 'error_bucket_name',
} as const;

export function readDeployedNames(file: string, units: readonly string[]): DeployedNames {
  if (!existsSync(file)) {
    throw new TargetNotReadyError(`No deployed-stack outputs at ${file}. ${DEPLOY_HINT(file, units)}`, {
      value: file,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new TargetNotReadyError(
      `${file} is not JSON (${(error as Error).message}). ${DEPLOY_HINT(file, units)}`,
      { value: file, cause: error },
    );
  }
  const outputs = new Map<string, unknown>();
  for (const stack of Object.values(parsed as Record<string, unknown>)) {
    if (stack && typeof stack === 'object') {
      for (const [key, value] of Object.entries(stack as Record<string, unknown>)) {
        outputs.set(key, value);
        // cdktf may camelCase output ids; accept both spellings.
        outputs.set(
          key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
          value,
        );
      }
    }
  }
  const read = (key: string): string => {
    const value = outputs.get(key);
    if (typeof value !== 'string' || value === '') {
      throw new TargetNotReadyError(
        `The outputs in ${file} have no ${key}: a stack is missing. ${DEPLOY_HINT(file, units)}`,
        { value: key },
      );
    }
    return value;
  };
  const names = Object.fromEntries(Object.entries(REQUIRED).map(([k, key]) => [k, read(key)])) as Omit<
    DeployedNames,
    'sqlNamespaces' | 'roles'
  >;
  const namespaces = outputs.get('namespaces');
  const sqlNamespaces = Array.isArray(namespaces)
    ? namespaces.map(String)
    : typeof namespaces === 'string'
      ? namespaces.split(',').map((s) => s.trim())
      : [];
  if (sqlNamespaces.length === 0) {
    throw new TargetNotReadyError(
      `The outputs in ${file} have no namespaces (ref-data stack). ${DEPLOY_HINT(file, units)}`,
      { value: 'namespaces' },
    );
  }
  const optional = (key: string) => {
    const value = outputs.get(key);
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const failedRowsAlarmName = optional('failed_rows_alarm_name');
  const analystWorkgroup = optional('analyst_workgroup');
  const alertsTopicArn = optional('alerts_topic_arn');
  return {
    ...names,
    sqlNamespaces,
    roles: labRoles(parsed as Record<string, Record<string, unknown>>),
    ...(failedRowsAlarmName ? { failedRowsAlarmName } : {}),
    ...(alertsTopicArn ? { alertsTopicArn } : {}),
    ...(analystWorkgroup ? { analystWorkgroup } : {}),
  };
}
