// Runs the generated conformance cases against an endpoint over loopback (a bounded number in flight) and judges
// each answer; prints the coverage table per service (operations served / in the model, constraints checked).
import type { ServedService } from '../../src/model/api';
import type { ConformanceCase, SkippedConstraint } from './conformance';

export interface Outcome {
  case: ConformanceCase;
  status: number;
  code?: string;
  message: string;
  passed: boolean;
  /** Why a case failed (what was expected, what came). */
  failure?: string;
}

export async function runCases(url: string, cases: ConformanceCase[], concurrency = 16): Promise<Outcome[]> {
  const first = cases.filter((c) => !c.last);
  const last = cases.filter((c) => c.last);
  const outcomes: Outcome[] = [];
  for (const batch of [first, last]) {
    let next = 0;
    const worker = async () => {
      while (next < batch.length) {
        const item = batch[next++] as ConformanceCase;
        outcomes.push(judge(item, await send(url, item)));
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, batch.length) }, worker));
  }
  return outcomes;
}

async function send(
  url: string,
  item: ConformanceCase,
): Promise<{ status: number; code?: string; message: string }> {
  const { request } = item;
  const response = await fetch(`${url}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body,
  });
  const text = await response.text();
  const header =
    response.headers.get('x-amzn-errortype') ?? response.headers.get('x-amz-error-code') ?? undefined;
  let code = header?.split(':')[0];
  let message = '';
  if (text.startsWith('<')) {
    code ??= /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
    message = /<Message>([\s\S]*?)<\/Message>/.exec(text)?.[1] ?? '';
  } else if (text) {
    try {
      const body = JSON.parse(text) as { message?: string; Message?: string; __type?: string };
      message = body.message ?? body.Message ?? '';
      code ??= body.__type?.split('#').pop();
    } catch {
      message = text;
    }
  }
  return { status: response.status, code, message };
}

function judge(item: ConformanceCase, answer: { status: number; code?: string; message: string }): Outcome {
  const outcome = { case: item, ...answer };
  const fail = (failure: string): Outcome => ({ ...outcome, passed: false, failure });
  const expect = item.expect;
  switch (expect.kind) {
    case 'valid': {
      if (answer.status < 300) return { ...outcome, passed: true };
      if (answer.status >= 500) return fail(`a server error (${answer.status} ${answer.code})`);
      if (
        /validation error|not supported by the local endpoint/.test(answer.message) ||
        answer.code === 'SerializationException'
      )
        return fail(`refused a request its model allows: ${answer.code}: ${answer.message}`);
      if (expect.anyClientError || (answer.code && expect.documented.includes(answer.code)))
        return { ...outcome, passed: true };
      return fail(
        `${answer.code} is not among the operation's documented errors (${expect.documented.join(', ')})`,
      );
    }
    case 'refused':
      if (
        answer.code === expect.code &&
        answer.status >= 400 &&
        answer.status < 500 &&
        // A HEAD reply has no body: only its error code can be read (S3 sends it in x-amz-error-code).
        (item.request.method === 'HEAD' || answer.message.includes(expect.fragment))
      )
        return { ...outcome, passed: true };
      return fail(
        `expected ${expect.code} with "${expect.fragment}", got ${answer.status} ${answer.code}: ${answer.message}`,
      );
    case 'unsupported':
      if (
        answer.code === 'UnsupportedOperationException' &&
        answer.message.includes(expect.operation) &&
        answer.message.includes('not supported by the local endpoint')
      )
        return { ...outcome, passed: true };
      return fail(
        `expected UnsupportedOperationException naming ${expect.operation}, got ${answer.status} ${answer.code}: ${answer.message}`,
      );
  }
}

export interface CoverageRow {
  service: string;
  operations: number;
  served: number;
  validRequests: number;
  validSucceeded: number;
  constraintsChecked: number;
  constraintsSkipped: number;
  notServedAnswered: number;
  failed: number;
}

export function coverage(
  services: ServedService[],
  outcomes: Outcome[],
  skipped: SkippedConstraint[],
): CoverageRow[] {
  return services.map((service) => {
    const mine = outcomes.filter((o) => o.case.service === service.name);
    const valid = mine.filter((o) => o.case.label === 'valid');
    return {
      service: service.name,
      operations: Object.keys(service.api.model.operations).length,
      served: service.served.length,
      validRequests: valid.length,
      validSucceeded: valid.filter((o) => o.status < 300).length,
      constraintsChecked: mine.filter((o) => o.case.expect.kind === 'refused' && o.passed).length,
      constraintsSkipped: skipped.filter((s) => s.service === service.name).length,
      notServedAnswered: mine.filter((o) => o.case.expect.kind === 'unsupported' && o.passed).length,
      failed: mine.filter((o) => !o.passed).length,
    };
  });
}

export function formatCoverage(rows: CoverageRow[]): string {
  const header = [
    'service',
    'served / in model',
    'valid requests (succeeded)',
    'constraints refused as AWS',
    'not checkable',
    'not served → Unsupported',
    'failed',
  ];
  const lines = rows.map((r) => [
    r.service,
    `${r.served} / ${r.operations}`,
    `${r.validRequests} (${r.validSucceeded})`,
    String(r.constraintsChecked),
    String(r.constraintsSkipped),
    String(r.notServedAnswered),
    String(r.failed),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] as string).length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  return [row(header), row(widths.map((w) => '-'.repeat(w))), ...lines.map(row)].join('\n');
}
