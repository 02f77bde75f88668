// Typed calls to the local endpoint's admin API, for lab scripts and tests that run against `--target local`.
import type { CapturedNotification } from './cloudwatch/alarms';
import type { LocalStreamStats } from './firehose/service';
import type { MaintenanceRunReport } from './s3tables/maintenance';
import { LocalAwsError } from './errors';

async function call<T>(
  endpointUrl: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(new URL(path, endpointUrl), {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = (await response.json()) as T & { message?: string };
  if (!response.ok)
    throw new LocalAwsError(
      `Local endpoint admin ${method} ${path} failed: ${payload.message ?? response.status}`,
      path,
    );
  return payload;
}

/** Runs table maintenance now (what S3 Tables does on its own schedule) and returns what the engine really did. */
export async function runLocalMaintenance(
  endpointUrl: string,
  select: { bucket?: string; namespace?: string; table?: string } = {},
): Promise<MaintenanceRunReport[]> {
  return (
    await call<{ runs: MaintenanceRunReport[] }>(endpointUrl, 'POST', '/_local/maintenance/run', select)
  ).runs;
}

/**
 * Moves the clock maintenance judges snapshot ages by forward (the endpoint must have been started with
 * maintenanceClock 'adjustable'); returns the maintenance clock's new time.
 */
export async function advanceLocalMaintenanceClock(endpointUrl: string, advanceHours: number): Promise<Date> {
  const { now } = await call<{ now: string }>(endpointUrl, 'POST', '/_local/maintenance/clock', {
    advanceHours,
  });
  return new Date(now);
}

/** Flushes every Firehose buffer now and returns the per-stream delivery counters. */
export async function flushLocalFirehose(endpointUrl: string): Promise<Record<string, LocalStreamStats>> {
  return (
    await call<{ streams: Record<string, LocalStreamStats> }>(
      endpointUrl,
      'POST',
      '/_local/firehose/flush',
      {},
    )
  ).streams;
}

export async function localFirehoseStats(endpointUrl: string): Promise<Record<string, LocalStreamStats>> {
  return (
    await call<{ streams: Record<string, LocalStreamStats> }>(endpointUrl, 'GET', '/_local/firehose/stats')
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
): Promise<{ now: Date; changes: LocalAlarmChange[] }> {
  const r = await call<{ now: string; changes: LocalAlarmChange[] }>(
    endpointUrl,
    'POST',
    '/_local/cloudwatch/clock',
    { advanceSeconds: seconds },
  );
  return { now: new Date(r.now), changes: r.changes };
}

/** Evaluates every alarm now (CloudWatch does it about once a minute; the endpoint every 10 s). */
export async function evaluateLocalAlarms(
  endpointUrl: string,
): Promise<{ now: Date; changes: LocalAlarmChange[] }> {
  const r = await call<{ now: string; changes: LocalAlarmChange[] }>(
    endpointUrl,
    'POST',
    '/_local/cloudwatch/evaluate',
    {},
  );
  return { now: new Date(r.now), changes: r.changes };
}

/** The SNS messages alarm actions would have published (the endpoint serves no SNS: captured, not sent). */
export async function localAlarmNotifications(endpointUrl: string): Promise<CapturedNotification[]> {
  return (
    await call<{ notifications: CapturedNotification[] }>(
      endpointUrl,
      'GET',
      '/_local/cloudwatch/notifications',
    )
  ).notifications;
}

/** Session credentials an AWS service gets for a role it acts as (the role's trust policy must name the service). */
export interface LocalServiceCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  expiration: Date;
}

/**
 * The credentials AWS Lambda (or another service) would run with as `roleArn`: the local stand-in for a service
 * assuming its execution role. The endpoint must enforce authorization; a role that does not trust the service is
 * refused with STS's denial.
 */
export async function localServiceCredentials(
  endpointUrl: string,
  request: { service: string; roleArn: string; sourceArn?: string },
): Promise<LocalServiceCredentials> {
  const credentials = await call<Omit<LocalServiceCredentials, 'expiration'> & { expiration: string }>(
    endpointUrl,
    'POST',
    '/_local/iam/service-credentials',
    request,
  );
  return { ...credentials, expiration: new Date(credentials.expiration) };
}
