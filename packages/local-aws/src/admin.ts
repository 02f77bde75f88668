// The endpoint's own admin API under /_local/ (not an AWS API): what AWS does on its own schedule, on request.
//   GET  /_local/health                 → { ok, dataDir, faults, authorization (enforced or not) }
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
//   POST /_local/iam/service-credentials → body { service, roleArn, sourceArn? }: the session credentials an AWS
//                                         service (Lambda, locally run) gets for a role whose trust policy names it
//                                         (only when the endpoint enforces authorization)
import { AwsServiceError } from './errors';
import type { Authorization } from './authz';
import type { FaultInjector } from './faults';
import type { CloudWatchService } from './cloudwatch/service';
import type { FirehoseService } from './firehose/service';
import { parseJsonObject, type LocalRequest, type WireResponse } from './protocol';
import type { MaintenanceService } from './s3tables/maintenance';

export interface AdminContext {
  maintenance: MaintenanceService;
  firehose: FirehoseService;
  cloudwatch: CloudWatchService;
  faults: FaultInjector;
  dataDir: string;
  authorization?: Authorization;
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
          dataDir: context.dataDir,
          faults: context.faults.describe(),
          authorization: context.authorization !== undefined,
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
      case 'POST /_local/iam/service-credentials': {
        if (!context.authorization)
          return json(400, {
            message:
              'This endpoint does not enforce authorization, so any credentials will do; start it with the authorization option for role credentials.',
          });
        const body = adminBody(request);
        const outcome = context.authorization.serviceCredentials({
          service: String(body.service ?? ''),
          roleArn: String(body.roleArn ?? ''),
          ...(typeof body.sourceArn === 'string' ? { sourceArn: body.sourceArn } : {}),
        });
        return 'denied' in outcome ? json(403, { message: outcome.denied }) : json(200, outcome.credentials);
      }
      default:
        return json(404, {
          message: `Unknown admin route ${route}. Known: GET /_local/health, POST /_local/maintenance/run, GET /_local/maintenance/reports, POST /_local/maintenance/clock, POST /_local/firehose/flush, GET /_local/firehose/stats, POST /_local/cloudwatch/clock, POST /_local/cloudwatch/evaluate, GET /_local/cloudwatch/notifications, POST /_local/iam/service-credentials.`,
        });
    }
  } catch (error) {
    if (error instanceof AwsServiceError) return json(error.status, { message: error.message });
    return json(500, { message: error instanceof Error ? error.message : String(error) });
  }
}

function adminBody(request: LocalRequest): Record<string, unknown> {
  return parseJsonObject(
    request.body,
    (problem) =>
      new AwsServiceError(
        'SerializationException',
        400,
        `The admin request body is not a JSON object: ${problem}.`,
      ),
  );
}
