// What `pnpm load` says after each step on AWS and at the end, from the accounting and the stream's counters.
import { describe, test, expect } from '@jest/globals';
import type { LocalStreamStats } from '@loglake/local-aws';
import type { LabTarget } from '../target/lab-target';
import { awsStepLine, closingLine } from './load-cli';

const resources = {
  namespace: 'network',
  table: 'vpc_flow_logs',
  errorBucketName: 'loglake-01-firehose-errors-123456789012',
  errorPrefix: 'errors/',
};
const local = { kind: 'local', resources, dataDir: '/lake' } as unknown as LabTarget;
const report = (accepted: number, failedForGood = 0) =>
  ({ accepted, failedForGood, notSent: 0 }) as Parameters<typeof closingLine>[1][number];
const stats = (s: Partial<LocalStreamStats>) =>
  ({ recordsReceived: 0, recordsDelivered: 0, recordsFailed: 0, commits: 0, ...s }) as LocalStreamStats;

describe('pnpm load says what happened', () => {
  test('on AWS, a step with nothing accepted says nothing will land, not that it will be committed', () => {
    expect(awsStepLine({ accepted: 0 }, 60)).toBe(
      'Firehose accepted none of them: nothing will land in the table.',
    );
    expect(awsStepLine({ accepted: 1500 }, 60)).toBe(
      'Firehose commits the 1,500 accepted within its buffer interval (60 s).',
    );
  });

  test('delivered, failed and where bad records went; what is still buffered when not waited for', () => {
    expect(
      closingLine(
        local,
        [report(20), report(3)],
        stats({ recordsReceived: 23, recordsDelivered: 20, recordsFailed: 3, commits: 2 }),
        { interrupted: false },
      ),
    ).toBe(
      'done: 20 records delivered to network.vpc_flow_logs in 2 commits; 3 failed delivery and went to the error bucket, s3://loglake-01-firehose-errors-123456789012/errors/, with their raw bytes.',
    );
    expect(
      closingLine(local, [report(30, 2)], stats({ recordsReceived: 30 }), { interrupted: true }),
    ).toMatch(
      /^interrupted: 30 records are still in Firehose's buffer, .*; delivered so far: 0 to network\.vpc_flow_logs; 2 were not accepted/,
    );
  });
});
