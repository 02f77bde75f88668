// Trino's date and time functions and operators, from the examples on their documentation page. Athena's session
// time zone is UTC, so examples the page runs in America/Vancouver or America/New_York are given in UTC. A
// timestamp literal is timestamp(p) with p the fraction digits written (Trino's DateTimes.extractTimestampPrecision:
// `TIMESTAMP '2020-03-01 00:00:00'` is timestamp(0)); results the page still prints with `.000` from before
// Trino 341 introduced timestamp(p) are given at the literal's precision.
import { pageCases, type CorpusCase } from '../case';

const PAGE = 'https://trino.io/docs/current/functions/datetime.html';
const PRECISION =
  'timestamp(p) literal precision: trinodb/trino core/trino-spi DateTimes.extractTimestampPrecision (the page prints .000 from before timestamp(p))';

const c = pageCases('date-time', PAGE);

export const DATE_TIME: CorpusCase[] = [
  c('date-plus-interval', "SELECT date '2012-08-08' + interval '2' day", [['2012-08-10']], {
    types: ['date'],
  }),
  c('time-plus-interval', "SELECT time '01:00' + interval '3' hour", [['04:00:00']], { note: PRECISION }),
  c(
    'timestamp-plus-hours',
    "SELECT timestamp '2012-08-08 01:00' + interval '29' hour",
    [['2012-08-09 06:00:00']],
    {
      types: ['timestamp(0)'],
      note: PRECISION,
    },
  ),
  c(
    'timestamp-plus-month',
    "SELECT timestamp '2012-10-31 01:00' + interval '1' month",
    [['2012-11-30 01:00:00']],
    {
      note: PRECISION,
    },
  ),
  c('interval-plus-interval-ds', "SELECT interval '2' day + interval '3' hour", [['2 03:00:00.000']], {
    types: ['interval day to second'],
  }),
  c('interval-plus-interval-ym', "SELECT interval '3' year + interval '5' month", [['3-5']]),
  c('date-minus-interval', "SELECT date '2012-08-08' - interval '2' day", [['2012-08-06']]),
  c('time-minus-interval', "SELECT time '01:00' - interval '3' hour", [['22:00:00']], { note: PRECISION }),
  c(
    'timestamp-minus-hours',
    "SELECT timestamp '2012-08-08 01:00' - interval '29' hour",
    [['2012-08-06 20:00:00']],
    {
      note: PRECISION,
    },
  ),
  c(
    'timestamp-minus-month',
    "SELECT timestamp '2012-10-31 01:00' - interval '1' month",
    [['2012-09-30 01:00:00']],
    {
      note: PRECISION,
    },
  ),
  c('interval-minus-interval-ds', "SELECT interval '2' day - interval '3' hour", [['1 21:00:00.000']]),
  c('interval-minus-interval-ym', "SELECT interval '3' year - interval '5' month", [['2-7']]),
  c('timestamp-literal-utc', "SELECT timestamp '2012-10-31 01:00 UTC'", [['2012-10-31 01:00:00 UTC']], {
    types: ['timestamp(0) with time zone'],
    note: PRECISION,
  }),
  c(
    'at-time-zone-named',
    "SELECT timestamp '2012-10-31 01:00 UTC' AT TIME ZONE 'America/Los_Angeles'",
    [['2012-10-30 18:00:00 America/Los_Angeles']],
    { note: PRECISION },
  ),
  c(
    'from-iso8601-timestamp-offset',
    "SELECT from_iso8601_timestamp('2020-05-11T11:15:05.055+01:00')",
    [['2020-05-11 11:15:05.055 +01:00']],
    { types: ['timestamp(3) with time zone'] },
  ),
  c(
    'from-iso8601-timestamp-date',
    "SELECT from_iso8601_timestamp('2020-05-11')",
    [['2020-05-11 00:00:00.000 UTC']],
    {
      note: 'session zone UTC (the page runs in America/Vancouver)',
    },
  ),
  c(
    'from-iso8601-timestamp-local',
    "SELECT from_iso8601_timestamp('2020-05-11T11:15:05')",
    [['2020-05-11 11:15:05.000 UTC']],
    { note: 'session zone UTC (the page runs in America/Vancouver)' },
  ),
  c('from-iso8601-date', "SELECT from_iso8601_date('2020-05-11')", [['2020-05-11']], { types: ['date'] }),
  c('from-iso8601-date-week', "SELECT from_iso8601_date('2020-W10')", [['2020-03-02']]),
  c('from-iso8601-date-ordinal', "SELECT from_iso8601_date('2020-123')", [['2020-05-02']]),
  c(
    'at-timezone',
    "SELECT at_timezone(TIMESTAMP '2022-11-01 09:08:07.321', 'America/Los_Angeles')",
    [['2022-11-01 02:08:07.321 America/Los_Angeles']],
    { note: 'session zone UTC (the page runs in America/New_York: 06:08:07.321)' },
  ),
  c('with-timezone', "SELECT with_timezone(TIMESTAMP '2022-11-01 09:08:07.321', 'America/Los_Angeles')", [
    ['2022-11-01 09:08:07.321 America/Los_Angeles'],
  ]),
  c(
    'date-trunc-day',
    "SELECT date_trunc('day' , TIMESTAMP '2022-10-20 05:10:00')",
    [['2022-10-20 00:00:00']],
    {
      note: PRECISION,
    },
  ),
  c(
    'date-trunc-month',
    "SELECT date_trunc('month' , TIMESTAMP '2022-10-20 05:10:00')",
    [['2022-10-01 00:00:00']],
    {
      note: PRECISION,
    },
  ),
  c(
    'date-trunc-year',
    "SELECT date_trunc('year', TIMESTAMP '2022-10-20 05:10:00')",
    [['2022-01-01 00:00:00']],
    {
      note: PRECISION,
    },
  ),
  ...(
    [
      ['millisecond', '2001-08-22 03:04:05.321'],
      ['second', '2001-08-22 03:04:05.000'],
      ['minute', '2001-08-22 03:04:00.000'],
      ['hour', '2001-08-22 03:00:00.000'],
      ['day', '2001-08-22 00:00:00.000'],
      ['week', '2001-08-20 00:00:00.000'],
      ['month', '2001-08-01 00:00:00.000'],
      ['quarter', '2001-07-01 00:00:00.000'],
      ['year', '2001-01-01 00:00:00.000'],
    ] as const
  ).map(([unit, value]) =>
    c(
      `date-trunc-table-${unit}`,
      `SELECT date_trunc('${unit}', TIMESTAMP '2001-08-22 03:04:05.321')`,
      [[value]],
      {
        types: ['timestamp(3)'],
      },
    ),
  ),
  c(
    'date-add-second',
    "SELECT date_add('second', 86, TIMESTAMP '2020-03-01 00:00:00')",
    [['2020-03-01 00:01:26']],
    {
      note: PRECISION,
    },
  ),
  c(
    'date-add-hour',
    "SELECT date_add('hour', 9, TIMESTAMP '2020-03-01 00:00:00')",
    [['2020-03-01 09:00:00']],
    {
      note: PRECISION,
    },
  ),
  c(
    'date-add-day-utc',
    "SELECT date_add('day', -1, TIMESTAMP '2020-03-01 00:00:00 UTC')",
    [['2020-02-29 00:00:00 UTC']],
    { note: PRECISION },
  ),
  c(
    'date-diff-second',
    "SELECT date_diff('second', TIMESTAMP '2020-03-01 00:00:00', TIMESTAMP '2020-03-02 00:00:00')",
    [['86400']],
    { types: ['bigint'] },
  ),
  c(
    'date-diff-hour-utc',
    "SELECT date_diff('hour', TIMESTAMP '2020-03-01 00:00:00 UTC', TIMESTAMP '2020-03-02 00:00:00 UTC')",
    [['24']],
  ),
  c('date-diff-day', "SELECT date_diff('day', DATE '2020-03-01', DATE '2020-03-02')", [['1']], {
    types: ['bigint'],
  }),
  c(
    'date-diff-second-nanos',
    "SELECT date_diff('second', TIMESTAMP '2020-06-01 12:30:45.000000000', TIMESTAMP '2020-06-02 12:30:45.123456789')",
    [['86400']],
  ),
  c(
    'date-diff-millisecond-nanos',
    "SELECT date_diff('millisecond', TIMESTAMP '2020-06-01 12:30:45.000000000', TIMESTAMP '2020-06-02 12:30:45.123456789')",
    [['86400123']],
  ),
  c(
    'parse-duration',
    "SELECT parse_duration('42.8ms'), parse_duration('3.81 d'), parse_duration('5m')",
    [['0 00:00:00.043', '3 19:26:24.000', '0 00:05:00.000']],
    { types: ['interval day to second', 'interval day to second', 'interval day to second'] },
  ),
  c(
    'human-readable-seconds',
    'SELECT human_readable_seconds(96), human_readable_seconds(3762), human_readable_seconds(56363463)',
    [
      [
        '1 minute, 36 seconds',
        '1 hour, 2 minutes, 42 seconds',
        '93 weeks, 1 day, 8 hours, 31 minutes, 3 seconds',
      ],
    ],
    { types: ['varchar', 'varchar', 'varchar'] },
  ),
  c(
    'from-unixtime-nanos',
    "SELECT from_unixtime_nanos(100), from_unixtime_nanos(DECIMAL '1234'), from_unixtime_nanos(DECIMAL '1234.499'), from_unixtime_nanos(DECIMAL '-1234')",
    [
      [
        '1970-01-01 00:00:00.000000100 UTC',
        '1970-01-01 00:00:00.000001234 UTC',
        '1970-01-01 00:00:00.000001234 UTC',
        '1969-12-31 23:59:59.999998766 UTC',
      ],
    ],
    { types: Array(4).fill('timestamp(9) with time zone') },
  ),
  c(
    'from-iso8601-timestamp-nanos',
    "SELECT from_iso8601_timestamp_nanos('2020-05-11T11:15:05.123456789+01:00')",
    [['2020-05-11 11:15:05.123456789 +01:00']],
    {
      gap: {
        error: /^NOT_SUPPORTED: .*from_iso8601_timestamp_nanos/,
        reason: 'a zoned value with nanoseconds: DuckDB keeps zoned instants to the microsecond',
      },
    },
  ),
  c('current-timestamp-precision', 'SELECT typeof(current_timestamp(6)), typeof(current_timestamp)', [
    ['timestamp(6) with time zone', 'timestamp(3) with time zone'],
  ]),
  c('current-timezone', 'SELECT current_timezone()', [['UTC']], {
    types: ['varchar'],
    note: "Athena's session zone is UTC",
  }),
  c(
    'to-milliseconds',
    "SELECT to_milliseconds(interval '1' day), to_milliseconds(interval '1.5' second)",
    [['86400000', '1500']],
    {
      types: ['bigint', 'bigint'],
      ours: 'the page\'s definition ("Returns the day-to-second interval as milliseconds"); it shows no result',
    },
  ),
  c(
    'timezone-hour-minute',
    "SELECT timezone_hour(TIMESTAMP '2024-01-01 12:00:00 +01:00'), timezone_minute(TIMESTAMP '2024-01-01 12:00:00 -04:30'), timezone_hour(TIMESTAMP '2024-07-01 12:00:00 America/New_York')",
    [['1', '-30', '-4']],
    {
      types: ['bigint', 'bigint', 'bigint'],
      ours: "the page's definition (the hour / minute of the zone offset) on the timezone() example's literal form; it shows no result",
    },
  ),
  c(
    'parse-datetime',
    "SELECT parse_datetime('2020-05-11 11:15:05', 'yyyy-MM-dd HH:mm:ss')",
    [['2020-05-11 11:15:05.000 UTC']],
    {
      types: ['timestamp(3) with time zone'],
      ours: "the page's definition (Joda's pattern, a timestamp with time zone, the session zone UTC); it shows no result",
    },
  ),
  c(
    'offset-literal',
    "SELECT TIMESTAMP '2024-01-01 12:00:00 +01:00', TIMESTAMP '2024-01-01 12:00:00 +01:00' AT TIME ZONE 'UTC'",
    [['2024-01-01 12:00:00 +01:00', '2024-01-01 11:00:00 UTC']],
    {
      types: ['timestamp(0) with time zone', 'timestamp(0) with time zone'],
      note: "the timezone() example's literal, evaluated (the AT TIME ZONE example's form); precision 0 as written",
    },
  ),
  c(
    'offset-literal-fields',
    "SELECT hour(TIMESTAMP '2024-01-01 12:00:00 +01:00'), date_trunc('day', TIMESTAMP '2024-01-01 00:30:00 +01:00'), CAST(TIMESTAMP '2024-01-01 12:00:00 +01:00' AS varchar)",
    [['12', '2024-01-01 00:00:00 +01:00', '2024-01-01 12:00:00 +01:00']],
    { note: "hour() and date_trunc read the wall clock in the value's zone" },
  ),
  c(
    'to-iso8601-offsets',
    "SELECT to_iso8601(TIMESTAMP '2024-01-01 12:00:00 +01:00'), to_iso8601(TIMESTAMP '2024-07-01 12:00:00.055 America/New_York'), to_iso8601(TIMESTAMP '2024-01-01 12:00:00 Asia/Tokyo')",
    [['2024-01-01T12:00:00+01:00', '2024-07-01T12:00:00.055-04:00', '2024-01-01T12:00:00+09:00']],
    {
      types: ['varchar', 'varchar', 'varchar'],
      ours: "ISO 8601 with the zone's offset at the instant, as Trino's TestDateTimeFunctions expects it; the page shows no result",
    },
  ),
  c('date-add-date', "SELECT date_add('day', 1, DATE '2024-01-31')", [['2024-02-01']], {
    types: ['date'],
    note: 'the page: date_add returns [same as input]',
  }),
  c(
    'date-format',
    "SELECT date_format(TIMESTAMP '2022-10-20 05:10:00', '%m-%d-%Y %H')",
    [['10-20-2022 05']],
    {
      types: ['varchar'],
    },
  ),
  c('date-parse', "SELECT date_parse('2022/10/20/05', '%Y/%m/%d/%H')", [['2022-10-20 05:00:00.000']], {
    types: ['timestamp(3)'],
  }),
  c('extract-year', "SELECT extract(YEAR FROM TIMESTAMP '2022-10-20 05:10:00')", [['2022']], {
    types: ['bigint'],
  }),
  c('timezone-named', "SELECT timezone(TIMESTAMP '2024-01-01 12:00:00 Asia/Tokyo')", [['Asia/Tokyo']]),
  c('timezone-offset', "SELECT timezone(TIMESTAMP '2024-01-01 12:00:00 +01:00')", [['+01:00']]),
  c('timezone-utc', "SELECT timezone(TIMESTAMP '2024-02-29 12:00:00 UTC')", [['UTC']]),
  c('day-of-week-sunday', "SELECT day_of_week(DATE '2024-05-05'), dow(DATE '2024-05-06')", [['7', '1']], {
    note: 'the page: "The value ranges from 1 (Monday) to 7 (Sunday)"',
  }),
  c('day-of-year', "SELECT day_of_year(DATE '2024-12-31')", [['366']], {
    note: 'the page: "The value ranges from 1 to 366"',
  }),
  c('last-day-of-month', "SELECT last_day_of_month(DATE '2024-02-10')", [['2024-02-29']], {
    types: ['date'],
  }),
  c('from-unixtime', 'SELECT from_unixtime(0)', [['1970-01-01 00:00:00.000 UTC']], {
    types: ['timestamp(3) with time zone'],
    note: 'the page: returns timestamp(3) with time zone; the session zone is UTC',
  }),
  c('to-unixtime', "SELECT to_unixtime(TIMESTAMP '1970-01-01 00:01:00 UTC')", [['60.0']], {
    types: ['double'],
  }),
  c(
    'to-iso8601-timestamp',
    "SELECT to_iso8601(TIMESTAMP '2020-05-11 11:15:05.055'), to_iso8601(DATE '2020-05-11')",
    [['2020-05-11T11:15:05.055', '2020-05-11']],
    { note: 'form as Trino\'s TestDateTimeFunctions expects it ("2001-08-22T03:04:05.321")' },
  ),
  c(
    'to-iso8601-zoned',
    "SELECT to_iso8601(from_iso8601_timestamp('2020-05-11T11:15:05.055Z'))",
    [['2020-05-11T11:15:05.055Z']],
    { note: 'ISO 8601 offset of UTC is Z, as Trino writes it' },
  ),
  c(
    'convenience-extraction',
    "SELECT year(d), quarter(d), month(d), week(d), day(d), hour(t), minute(t), second(t), millisecond(t) FROM (VALUES (DATE '2024-05-01', TIMESTAMP '2024-05-01 10:20:30.456')) AS v(d, t)",
    [['2024', '2', '5', '18', '1', '10', '20', '30', '456']],
  ),
];
