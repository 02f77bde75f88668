// The endpoint's own admin API under /_local/ (not an AWS API): what AWS does on its own schedule, on request. With
// authorization on, every route but the health answer is an administrator's (dispatch.ts checks the caller first:
// admin-access.ts); an AWS service's credentials for a role are handed out in-process only (LocalEndpoint.
// serviceCredentials), never over HTTP.
//   GET  /_local/health                 → { ok, faults, authorization (enforced or not) } (no paths, no secrets)
//   POST /_local/maintenance/run        → body { bucket?, namespace?, table? }: runs the enabled maintenance jobs
//                                         now and returns the engine's reports (what was really rewritten/expired)
//   GET  /_local/maintenance/reports    → the last 500 job reports
//   POST /_local/maintenance/clock      → body { advanceHours }: moves the maintenance clock forward (only when the
//                                         endpoint was started with maintenanceClock 'adjustable'); → { now }
//   POST /_local/firehose/flush         → flushes every stream's buffer (each non-empty buffer = one commit)
//   GET  /_local/firehose/stats         → per stream: received, delivered, failed, commits, pending, error files
//   POST /_local/cloudwatch/clock       → body { advanceSeconds }: moves CloudWatch's clock forward (only when the
//                                         endpoint was started with cloudWatchClock 'adjustable') and evaluates
//                                         every alarm; → { now, changes }
//   POST /_local/cloudwatch/evaluate    → evaluates every alarm now; → { now, changes }
//   GET  /_local/cloudwatch/notifications → the SNS messages alarm actions would have published (not sent)
import { AwsServiceError } from './errors';
import type { FaultInjector } from './faults';
import type { CloudWatchService } from './cloudwatch/service';
import type { FirehoseService } from './firehose/service';
import { parseJsonObject, type LocalRequest, type WireResponse } from './protocol';
import type { MaintenanceService } from './s3tables/maintenance';
import { wireError } from './model/wire-errors';

export interface AdminContext {
  maintenance: MaintenanceService;
  firehose: FirehoseService;
  cloudwatch: CloudWatchService;
  faults: FaultInjector;
  /** The endpoint enforces authorization (the health answer says so). */
  authorization: boolean;
}

const json = (status: number, body: unknown): WireResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

export async function handleAdmin(request: LocalRequest, context: AdminContext): Promise<WireResponse> {
  const route = `${request.method} ${request.path}`;
  try {
    switch (route) {
      case 'GET /_local/health':
        return json(200, {
          ok: true,
          faults: context.faults.describe(),
          authorization: context.authorization,
        });
      case 'POST /_local/maintenance/run': {
        const body = adminBody(request);
        const select = {
          bucket: typeof body.bucket === 'string' ? body.bucket : undefined,
          namespace: typeof body.namespace === 'string' ? body.namespace : undefined,
          table: typeof body.table === 'string' ? body.table : undefined,
        };
        return json(200, { runs: await context.maintenance.run(select) });
      }
      case 'POST /_local/maintenance/clock': {
        const hours = Number(adminBody(request).advanceHours);
        return json(200, { now: context.maintenance.advanceClock(hours).toISOString() });
      }
      case 'GET /_local/maintenance/reports':
        return json(200, { reports: context.maintenance.reports() });
      case 'POST /_local/firehose/flush':
        await context.firehose.flushAll();
        return json(200, { streams: context.firehose.stats() });
      case 'GET /_local/firehose/stats':
        return json(200, { streams: context.firehose.stats() });
      case 'POST /_local/cloudwatch/clock': {
        const advanced = context.cloudwatch.advanceClock(Number(adminBody(request).advanceSeconds));
        return json(200, { now: advanced.now.toISOString(), changes: advanced.changes });
      }
      case 'POST /_local/cloudwatch/evaluate': {
        const changes = context.cloudwatch.evaluate();
        return json(200, { now: new Date(context.cloudwatch.clock.now()).toISOString(), changes });
      }
      case 'GET /_local/cloudwatch/notifications':
        return json(200, { notifications: context.cloudwatch.notifications() });
      default:
        return json(404, {
          message: `Unknown admin route ${route}. Known: GET /_local/health, POST /_local/maintenance/run, GET /_local/maintenance/reports, POST /_local/maintenance/clock, POST /_local/firehose/flush, GET /_local/firehose/stats, POST /_local/cloudwatch/clock, POST /_local/cloudwatch/evaluate, GET /_local/cloudwatch/notifications. (AWS service credentials are handed out in-process only: LocalEndpoint.serviceCredentials.)`,
        });
    }
  } catch (error) {
    if (error instanceof AwsServiceError) return json(error.status, { message: error.message });
    // The admin API's own mistakes are the caller's only when they are the body's (handled above).
    return json(500, { message: error instanceof Error ? error.message : String(error) });
  }
}

function adminBody(request: LocalRequest): Record<string, unknown> {
  return parseJsonObject(request.body, (problem) =>
    wireError(
      undefined,
      'SerializationException',
      `The admin request body is not a JSON object: ${problem}.`,
    ),
  );
}
