// Trino's window functions: the page's examples (ranking orders per clerk, a rolling sum, ntile's buckets) on a
// small orders relation, and each function's stated semantics.
import { pageCases, type CorpusCase } from '../case';

const PAGE = 'https://trino.io/docs/current/functions/window.html';
const SELECT_PAGE = 'https://trino.io/docs/current/sql/select.html#window-clause';

const ORDERS = `(VALUES (1, 'Clerk#1', 100.0, DATE '2024-01-01'), (2, 'Clerk#1', 300.0, DATE '2024-01-02'),
  (3, 'Clerk#1', 300.0, DATE '2024-01-03'), (4, 'Clerk#2', 50.0, DATE '2024-01-01'), (5, 'Clerk#2', 75.0, DATE '2024-01-05'))
  AS orders(orderkey, clerk, totalprice, orderdate)`;

const c = pageCases('window', PAGE);

export const WINDOW: CorpusCase[] = [
  c(
    'rank-per-clerk',
    `SELECT orderkey, clerk, totalprice, rank() OVER (PARTITION BY clerk ORDER BY totalprice DESC) AS rnk FROM ${ORDERS} ORDER BY clerk, rnk, orderkey`,
    [
      ['2', 'Clerk#1', '300.0', '1'],
      ['3', 'Clerk#1', '300.0', '1'],
      ['1', 'Clerk#1', '100.0', '3'],
      ['5', 'Clerk#2', '75.0', '1'],
      ['4', 'Clerk#2', '50.0', '2'],
    ],
  ),
  c(
    'rolling-sum',
    `SELECT clerk, orderdate, orderkey, totalprice, sum(totalprice) OVER (PARTITION BY clerk ORDER BY orderdate) AS rolling_sum FROM ${ORDERS} ORDER BY clerk, orderdate, orderkey`,
    [
      ['Clerk#1', '2024-01-01', '1', '100.0', '100.0'],
      ['Clerk#1', '2024-01-02', '2', '300.0', '400.0'],
      ['Clerk#1', '2024-01-03', '3', '300.0', '700.0'],
      ['Clerk#2', '2024-01-01', '4', '50.0', '50.0'],
      ['Clerk#2', '2024-01-05', '5', '75.0', '125.0'],
    ],
  ),
  c(
    'ntile-6-rows-4-buckets',
    'SELECT x, ntile(4) OVER (ORDER BY x) FROM (VALUES 1, 2, 3, 4, 5, 6) AS t(x) ORDER BY x',
    [
      ['1', '1'],
      ['2', '1'],
      ['3', '2'],
      ['4', '2'],
      ['5', '3'],
      ['6', '4'],
    ],
    { note: 'the page: "with 6 rows and 4 buckets, the bucket values would be as follows: 1 1 2 2 3 4"' },
  ),
  c(
    'dense-rank-row-number',
    'SELECT x, dense_rank() OVER (ORDER BY x), row_number() OVER (ORDER BY x) FROM (VALUES 10, 20, 20, 30) AS t(x) ORDER BY 3',
    [
      ['10', '1', '1'],
      ['20', '2', '2'],
      ['20', '2', '3'],
      ['30', '3', '4'],
    ],
    { types: ['integer', 'bigint', 'bigint'] },
  ),
  c(
    'percent-rank-cume-dist',
    'SELECT x, percent_rank() OVER (ORDER BY x), cume_dist() OVER (ORDER BY x) FROM (VALUES 1, 2, 2, 3) AS t(x) ORDER BY x',
    [
      ['1', '0.0', '0.25'],
      ['2', '0.3333333333333333', '0.75'],
      ['2', '0.3333333333333333', '0.75'],
      ['3', '1.0', '1.0'],
    ],
  ),
  c(
    'first-last-nth-value',
    `SELECT x, first_value(x) OVER w, last_value(x) OVER w, nth_value(x, 2) OVER w FROM (VALUES 1, 2, 3) AS t(x)
     WINDOW w AS (ORDER BY x ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) ORDER BY x`,
    [
      ['1', '1', '3', '2'],
      ['2', '1', '3', '2'],
      ['3', '1', '3', '2'],
    ],
  ),
  c(
    'lead-lag-default',
    'SELECT x, lead(x) OVER (ORDER BY x), lag(x, 1, 0) OVER (ORDER BY x) FROM (VALUES 1, 2, 3) AS t(x) ORDER BY x',
    [
      ['1', '2', '0'],
      ['2', '3', '1'],
      ['3', null, '2'],
    ],
  ),
  c(
    'ignore-nulls',
    'SELECT x, last_value(x) IGNORE NULLS OVER (ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM (VALUES (1, 5), (2, NULL), (3, 7)) AS t(k, x) ORDER BY k',
    [
      ['5', '5'],
      [null, '5'],
      ['7', '7'],
    ],
  ),
  c(
    'frame-rows-preceding',
    'SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES 1, 2, 3, 4) AS t(x) ORDER BY x',
    [
      ['1', '1'],
      ['2', '3'],
      ['3', '5'],
      ['4', '7'],
    ],
  ),
  c(
    'named-window',
    `SELECT orderkey, rank() OVER w AS rnk FROM ${ORDERS} WINDOW w AS (PARTITION BY clerk ORDER BY totalprice DESC) ORDER BY orderkey`,
    [
      ['1', '3'],
      ['2', '1'],
      ['3', '1'],
      ['4', '2'],
      ['5', '1'],
    ],
    { source: SELECT_PAGE },
  ),
  c(
    'aggregate-over-partition',
    `SELECT DISTINCT clerk, count(*) OVER (PARTITION BY clerk) FROM ${ORDERS} ORDER BY clerk`,
    [
      ['Clerk#1', '3'],
      ['Clerk#2', '2'],
    ],
    { note: 'the page: "All aggregate functions can be used as window functions by adding the OVER clause"' },
  ),
];
