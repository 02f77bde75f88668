// Template parameters are validated by declared kind before rendering, so nothing a user passes with
// `--param` can change a statement's shape: only values matching a narrow pattern reach the SQL.
import { TemplateParameterError } from '../errors';

export const PARAM_KINDS = {
  identifier: {
    pattern: /^[A-Za-z_][A-Za-z0-9_]{0,127}$/,
    example: 'vpc_flow_logs',
  },
  date: { pattern: /^\d{4}-\d{2}-\d{2}$/, example: '2026-11-29' },
  timestamp: {
    pattern: /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z| UTC)?$/,
    example: '2026-11-29 10:15:00',
  },
  snapshot_id: { pattern: /^\d{1,19}$/, example: '5937117119577572103' },
  integer: { pattern: /^\d{1,12}$/, example: '10' },
  ip: { pattern: /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/, example: '198.51.100.77' },
} as const;

export type ParamKind = keyof typeof PARAM_KINDS;

export interface ParamDeclaration {
  name: string;
  kind: ParamKind;
  description: string;
}

export function isParamKind(kind: string): kind is ParamKind {
  return kind in PARAM_KINDS;
}

/** Checks one value against its kind and returns it in the form the SQL expects. */
export function validateParam(declaration: ParamDeclaration, raw: string): string {
  const { pattern, example } = PARAM_KINDS[declaration.kind];
  if (!pattern.test(raw)) {
    throw new TemplateParameterError(
      `Parameter ${declaration.name}=${JSON.stringify(raw)} is not a valid ${declaration.kind} (e.g. ${example}). ` +
        `Pass --param ${declaration.name}=<${declaration.kind}>.`,
      { value: raw },
    );
  }
  if (declaration.kind === 'date' && Number.isNaN(Date.parse(`${raw}T00:00:00Z`))) {
    throw new TemplateParameterError(`Parameter ${declaration.name}=${raw} is not a calendar date.`, {
      value: raw,
    });
  }
  if (declaration.kind === 'timestamp') return normalizeTimestamp(declaration.name, raw);
  return raw;
}

/**
 * Athena's timestamp literal body, `YYYY-MM-DD HH:MM:SS.ffffff` (microseconds, as Iceberg stores them), always
 * meaning UTC: templates write `TIMESTAMP '{{ t }}'` for comparisons with timestamp columns and
 * `TIMESTAMP '{{ t }} UTC'` where Athena wants a zone (FOR TIMESTAMP AS OF).
 */
export function normalizeTimestamp(name: string, raw: string): string {
  const body = raw.replace(/(Z| UTC)$/, '').replace('T', ' ');
  const [date, time] = body.split(' ') as [string, string];
  const [hms, frac = ''] = time.split('.') as [string, string | undefined];
  const iso = `${date}T${hms}Z`;
  if (Number.isNaN(Date.parse(iso))) {
    throw new TemplateParameterError(`Parameter ${name}=${raw} is not a valid timestamp.`, { value: raw });
  }
  return `${date} ${hms}.${frac.padEnd(6, '0')}`;
}

/** Formats a Date as an Athena timestamp parameter value. */
export function timestampParam(at: Date): string {
  return `${at.toISOString().slice(0, 23).replace('T', ' ')}000`;
}

/** Parses `k=v` pairs from the command line. */
export function parseParamPairs(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) {
      throw new TemplateParameterError(
        `--param ${JSON.stringify(pair)} is not name=value. Example: --param snapshot_id=123.`,
        { value: pair },
      );
    }
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}
