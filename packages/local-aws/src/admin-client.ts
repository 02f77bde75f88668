// Typed calls to the local endpoint's admin API, for lab scripts and tests that run against `--target local`. With
// authorization on, the admin API is an administrator's: each call is signed with SigV4 (by default with the lab's
// deployer key, LOCAL_CREDENTIALS, which the lab makes an administrator), or carries the endpoint's admin token.
import { createHash, createHmac } from 'node:crypto';
import type { CapturedNotification } from './cloudwatch/alarms';
import type { LocalStreamStats } from './firehose/service';
import type { MaintenanceRunReport } from './s3tables/maintenance';
import { LOCAL_CREDENTIALS, type LocalClientCredentials } from './client-config';
import { LocalAwsError } from './errors';

/** Who calls the admin API: credentials to sign with (default LOCAL_CREDENTIALS), or the endpoint's admin token. */
export interface AdminCaller {
  credentials?: LocalClientCredentials;
  token?: string;
}

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** SigV4 headers for a request to the admin API (signing name `loglake`: it is no AWS service). */
export function signAdminRequest(
  url: URL,
  method: string,
  body: string,
  credentials: LocalClientCredentials,
  now = new Date(),
): Record<string, string> {
  const amzDate = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const scope = `${day}/us-east-1/loglake/aws4_request`;
  const payloadHash = sha256(body);
  const headers: Record<string, string> = {
    host: url.host,
    'x-amz-content-sha256': payloadHash,
    'x-amz-date': amzDate,
    ...(credentials.sessionToken ? { 'x-amz-security-token': credentials.sessionToken } : {}),
  };
  const names = Object.keys(headers).sort();
  const canonical = [
    method,
    url.pathname,
    url.searchParams.toString(),
    ...names.map((n) => `${n}:${headers[n]}`),
    '',
    names.join(';'),
    payloadHash,
  ].join('\n');
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  let key = hmac(`AWS4${credentials.secretAccessKey}`, day);
  for (const part of ['us-east-1', 'loglake', 'aws4_request']) key = hmac(key, part);
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  const { host: _host, ...sent } = headers;
  return {
    ...sent,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
  };
}

async function call<T>(
  endpointUrl: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  caller: AdminCaller = {},
): Promise<T> {
  const url = new URL(path, endpointUrl);
  const text = body === undefined ? '' : JSON.stringify(body);
  const auth = caller.token
    ? { authorization: `Bearer ${caller.token}` }
    : signAdminRequest(url, method, text, caller.credentials ?? LOCAL_CREDENTIALS);
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...auth },
    body: body === undefined ? undefined : text,
  });
  const payload = (await response.json()) as T & { message?: string };
  if (!response.ok)
    throw new LocalAwsError(
      `Local endpoint admin ${method} ${path} failed: ${payload.message ?? response.status}`,
      { value: path },
    );
  return payload;
}

/** Runs table maintenance now (what S3 Tables does on its own schedule) and returns what the engine really did. */
export async function runLocalMaintenance(
  endpointUrl: string,
  select: { bucket?: string; namespace?: string; table?: string } = {},
  caller?: AdminCaller,
): Promise<MaintenanceRunReport[]> {
  return (
    await call<{ runs: MaintenanceRunReport[] }>(
      endpointUrl,
      'POST',
      '/_local/maintenance/run',
      select,
      caller,
    )
  ).runs;
}

/**
 * Moves the clock maintenance judges snapshot ages by forward (the endpoint must have been started with
 * maintenanceClock 'adjustable'); returns the maintenance clock's new time.
 */
export async function advanceLocalMaintenanceClock(
  endpointUrl: string,
  advanceHours: number,
  caller?: AdminCaller,
): Promise<Date> {
  const { now } = await call<{ now: string }>(
    endpointUrl,
    'POST',
    '/_local/maintenance/clock',
    { advanceHours },
    caller,
  );
  return new Date(now);
}

/** Flushes every Firehose buffer now and returns the per-stream delivery counters. */
export async function flushLocalFirehose(
  endpointUrl: string,
  caller?: AdminCaller,
): Promise<Record<string, LocalStreamStats>> {
  return (
    await call<{ streams: Record<string, LocalStreamStats> }>(
      endpointUrl,
      'POST',
      '/_local/firehose/flush',
      {},
      caller,
    )
  ).streams;
}

export async function localFirehoseStats(
  endpointUrl: string,
  caller?: AdminCaller,
): Promise<Record<string, LocalStreamStats>> {
  return (
    await call<{ streams: Record<string, LocalStreamStats> }>(
      endpointUrl,
      'GET',
      '/_local/firehose/stats',
      undefined,
      caller,
    )
  ).streams;
}

/** An alarm state change an evaluation made. */
export interface LocalAlarmChange {
  alarm: string;
  from: string;
  to: string;
}

/**
 * Moves CloudWatch's clock forward by `seconds` and evaluates every alarm (the endpoint must have been started with
 * cloudWatchClock 'adjustable'); returns the clock's new time and the state changes.
 */
export async function advanceLocalCloudWatchClock(
  endpointUrl: string,
  seconds: number,
  caller?: AdminCaller,
): Promise<{ now: Date; changes: LocalAlarmChange[] }> {
  const r = await call<{ now: string; changes: LocalAlarmChange[] }>(
    endpointUrl,
    'POST',
    '/_local/cloudwatch/clock',
    { advanceSeconds: seconds },
    caller,
  );
  return { now: new Date(r.now), changes: r.changes };
}

/** Evaluates every alarm now (CloudWatch does it about once a minute; the endpoint every 10 s). */
export async function evaluateLocalAlarms(
  endpointUrl: string,
  caller?: AdminCaller,
): Promise<{ now: Date; changes: LocalAlarmChange[] }> {
  const r = await call<{ now: string; changes: LocalAlarmChange[] }>(
    endpointUrl,
    'POST',
    '/_local/cloudwatch/evaluate',
    {},
    caller,
  );
  return { now: new Date(r.now), changes: r.changes };
}

/** The SNS messages alarm actions would have published (the endpoint serves no SNS: captured, not sent). */
export async function localAlarmNotifications(
  endpointUrl: string,
  caller?: AdminCaller,
): Promise<CapturedNotification[]> {
  return (
    await call<{ notifications: CapturedNotification[] }>(
      endpointUrl,
      'GET',
      '/_local/cloudwatch/notifications',
      undefined,
      caller,
    )
  ).notifications;
}

/** Session credentials an AWS service gets for a role it acts as (LocalEndpoint.serviceCredentials, in-process). */
export interface LocalServiceCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  expiration: Date;
}
