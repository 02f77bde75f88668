// AWS's list prices for what the lab uses, in us-east-1, as read on PRICES_AS_OF. Each price names AWS's pricing page
// and where its figure was actually read: a stored copy of AWS's page, or AWS's wording quoted from that page
// elsewhere when no copy of the page itself could be read here. A price that could not be found is null, and
// the estimate says so instead of guessing. No free tier is applied (an account's free tier is its own).
export const PRICES_AS_OF = '2026-12-01';
export const PRICE_REGION = 'us-east-1';

export type PriceId =
  | 'firehose.icebergGb'
  | 's3tables.storageGbMonth'
  | 's3tables.put1k'
  | 's3tables.get1k'
  | 's3tables.monitoring1kObjectsMonth'
  | 's3tables.binpack1kObjects'
  | 's3tables.binpackGb'
  | 's3tables.sort1kObjects'
  | 's3tables.sortGb'
  | 'athena.tb'
  | 'cloudwatch.alarmMonth'
  | 'cloudwatch.metricMonth'
  | 'lambda.1mRequests'
  | 'lambda.gbSecond'
  | 'sfn.1kTransitions'
  | 's3.standardGbMonth'
  | 's3.put1k'
  | 'sns.email';

export interface Price {
  id: PriceId;
  /** What is priced, as AWS's page words it. */
  item: string;
  /** USD per unit; null when the price was not found (the estimate leaves that item out and says why). */
  usd: number | null;
  unit: string;
  /** AWS's pricing page. */
  source: string;
  /** Where the figure was read, and anything a reader should know about it. */
  seen: string;
}

const S3 = 'https://aws.amazon.com/s3/pricing/';
const S3_TABLES_SEEN =
  "a stored copy of AWS's S3 pricing page, its S3 Tables pricing example (that example uses US West (Oregon); " +
  'the page’s region table for S3 Tables did not render in the copy, so the us-east-1 rate itself was not seen)';
const S3_STANDARD_SEEN = "a stored copy of AWS's S3 pricing page, its US East (N. Virginia) tables";
const QUOTED = (what: string) =>
  `AWS's wording, ${what}, as quoted from this page in public cost notes; no stored copy of AWS's page itself was found here`;

export const PRICES: Readonly<Record<PriceId, Price>> = {
  'firehose.icebergGb': {
    id: 'firehose.icebergGb',
    item: 'Apache Iceberg Tables as a destination: per GB ingested, no 5 KB increments (first 250 TB a month)',
    usd: 0.075,
    unit: 'GB ingested',
    source: 'https://aws.amazon.com/firehose/pricing/',
    seen:
      'the rule ("billed per GB ingested with no 5KB increments") and $0.075/GB as quoted from this page in ' +
      '"Cost-efficient event ingestion into Iceberg S3 Tables on AWS" (T. Müller, 2025), which does not name the ' +
      "region; no stored copy of AWS's page was found here",
  },
  's3tables.storageGbMonth': {
    id: 's3tables.storageGbMonth',
    item: 'S3 Tables storage, first 50 TB a month',
    usd: 0.0265,
    unit: 'GB-month',
    source: S3,
    seen: S3_TABLES_SEEN,
  },
  's3tables.put1k': {
    id: 's3tables.put1k',
    item: 'S3 Tables PUT requests',
    usd: 0.005,
    unit: '1,000 requests',
    source: S3,
    seen: S3_TABLES_SEEN,
  },
  's3tables.get1k': {
    id: 's3tables.get1k',
    item: 'S3 Tables GET requests',
    usd: 0.0004,
    unit: '1,000 requests',
    source: S3,
    seen: S3_TABLES_SEEN,
  },
  's3tables.monitoring1kObjectsMonth': {
    id: 's3tables.monitoring1kObjectsMonth',
    item: 'S3 Tables object monitoring',
    usd: 0.025,
    unit: '1,000 objects a month',
    source: S3,
    seen: S3_TABLES_SEEN,
  },
  's3tables.binpack1kObjects': {
    id: 's3tables.binpack1kObjects',
    item: 'S3 Tables compaction (default binpack): objects processed',
    usd: 0.002,
    unit: '1,000 objects processed',
    source: S3,
    seen: S3_TABLES_SEEN,
  },
  's3tables.binpackGb': {
    id: 's3tables.binpackGb',
    item: 'S3 Tables compaction (default binpack): data processed',
    usd: 0.005,
    unit: 'GB processed',
    source: S3,
    seen: S3_TABLES_SEEN,
  },
  's3tables.sort1kObjects': {
    id: 's3tables.sort1kObjects',
    item: 'S3 Tables compaction with the sort strategy: objects processed',
    usd: null,
    unit: '1,000 objects processed',
    source: S3,
    seen:
      'not found: the stored copy prices only "default binpack compaction" in its example, and its region table ' +
      'did not render',
  },
  's3tables.sortGb': {
    id: 's3tables.sortGb',
    item: 'S3 Tables compaction with the sort strategy: data processed',
    usd: null,
    unit: 'GB processed',
    source: S3,
    seen:
      'not found: the stored copy prices only "default binpack compaction" in its example, and its region table ' +
      'did not render',
  },
  'athena.tb': {
    id: 'athena.tb',
    item:
      'SQL queries: per TB scanned, "rounded up to the nearest megabyte, with a 10 MB minimum per query"; no ' +
      'charge for DDL or failed queries',
    usd: 5,
    unit: 'TB scanned',
    source: 'https://aws.amazon.com/athena/pricing/',
    seen: QUOTED('the rounding and minimum quoted verbatim, $5.00 per TB'),
  },
  'cloudwatch.alarmMonth': {
    id: 'cloudwatch.alarmMonth',
    item: 'standard resolution alarm, per alarm metric',
    usd: 0.1,
    unit: 'alarm metric a month',
    source: 'https://aws.amazon.com/cloudwatch/pricing/',
    seen: QUOTED('its worked example "$0.10 per alarm metric" (US East)'),
  },
  'cloudwatch.metricMonth': {
    id: 'cloudwatch.metricMonth',
    item:
      'custom metrics (the snapshot Lambdas publish theirs as EMF), first 10,000, prorated by the hour and ' +
      'metered only in the hours a metric is sent',
    usd: 0.3,
    unit: 'metric a month',
    source: 'https://aws.amazon.com/cloudwatch/pricing/',
    seen:
      QUOTED('"$0.30 per metric per month" (first 10,000 metrics)') +
      '; the hourly metering (a metric is billed for the hours in which it was sent at least once, e.g. one metric ' +
      'sent for 168 of 720 hours is $0.30 × 168/720) as read second-hand in a public note on CloudWatch custom ' +
      "metric billing (jpdebug.com), not on AWS's page itself",
  },
  'lambda.1mRequests': {
    id: 'lambda.1mRequests',
    item: 'requests (x86)',
    usd: 0.2,
    unit: '1 million requests',
    source: 'https://aws.amazon.com/lambda/pricing/',
    seen: QUOTED('"$0.20 per 1M requests" (x86, US East (N. Virginia))'),
  },
  'lambda.gbSecond': {
    id: 'lambda.gbSecond',
    item: 'duration (x86), first 6 billion GB-seconds a month',
    usd: 0.0000166667,
    unit: 'GB-second',
    source: 'https://aws.amazon.com/lambda/pricing/',
    seen: QUOTED('"$0.0000166667 for every GB-second" (x86, first 6 billion GB-seconds a month)'),
  },
  'sfn.1kTransitions': {
    id: 'sfn.1kTransitions',
    item: 'Standard workflows: state transitions',
    usd: 0.025,
    unit: '1,000 state transitions',
    source: 'https://aws.amazon.com/step-functions/pricing/',
    seen: QUOTED('"$0.025 per 1,000 state transitions ($0.000025 per state transition)"'),
  },
  's3.standardGbMonth': {
    id: 's3.standardGbMonth',
    item: 'S3 Standard storage, first 50 TB a month',
    usd: 0.023,
    unit: 'GB-month',
    source: S3,
    seen: S3_STANDARD_SEEN,
  },
  's3.put1k': {
    id: 's3.put1k',
    item: 'S3 Standard PUT, COPY, POST, LIST requests',
    usd: 0.005,
    unit: '1,000 requests',
    source: S3,
    seen: S3_STANDARD_SEEN,
  },
  'sns.email': {
    id: 'sns.email',
    item: 'e-mail notifications',
    usd: null,
    unit: 'notification',
    source: 'https://aws.amazon.com/sns/pricing/',
    seen: 'not found: no copy of this page, nor a quote of its e-mail rate, was read here',
  },
};
