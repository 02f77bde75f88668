// Trino's SELECT: complex grouping (GROUPING SETS, CUBE, ROLLUP, grouping()), set operations, ORDER BY /
// OFFSET / LIMIT / FETCH FIRST ... WITH TIES, UNNEST (with ORDINALITY, several arrays, maps, rows), WITH and joins:
// the page's examples, on its `shipping` table (a corpus fixture) or on VALUES where it queries TPC-H.
import { pageCases, type CorpusCase } from '../case';

const PAGE = 'https://trino.io/docs/current/sql/select.html';

const c = pageCases('select-clauses', PAGE);

/** The page's shipping table, created by the corpus fixtures. */
export const SHIPPING_FIXTURE = [
  `CREATE TABLE shipping (origin_state string, origin_zip int, destination_state string, destination_zip int, package_weight int)
   TBLPROPERTIES ('table_type' = 'iceberg')`,
  `INSERT INTO shipping VALUES ('California', 94131, 'New Jersey', 8648, 13), ('California', 94131, 'New Jersey', 8540, 42),
   ('New Jersey', 7081, 'Connecticut', 6708, 225), ('California', 90210, 'Connecticut', 6927, 1337),
   ('California', 94131, 'Colorado', 80302, 5), ('New York', 10002, 'New Jersey', 8540, 3)`,
];

const NATION = `(VALUES ('ETHIOPIA', 0), ('MOROCCO', 0), ('KENYA', 0), ('ALGERIA', 0), ('MOZAMBIQUE', 0), ('BRAZIL', 1), ('CHINA', 2))
  AS nation(name, regionkey)`;

export const SELECT_CLAUSES: CorpusCase[] = [
  c(
    'grouping-sets',
    `SELECT origin_state, origin_zip, destination_state, sum(package_weight) FROM shipping
     GROUP BY GROUPING SETS ((origin_state), (origin_state, origin_zip), (destination_state))`,
    [
      ['New Jersey', null, null, '225'],
      ['California', null, null, '1397'],
      ['New York', null, null, '3'],
      ['California', '90210', null, '1337'],
      ['California', '94131', null, '60'],
      ['New Jersey', '7081', null, '225'],
      ['New York', '10002', null, '3'],
      [null, null, 'Colorado', '5'],
      [null, null, 'New Jersey', '58'],
      [null, null, 'Connecticut', '1562'],
    ],
    { unordered: true },
  ),
  c(
    'cube',
    'SELECT origin_state, destination_state, sum(package_weight) FROM shipping GROUP BY CUBE (origin_state, destination_state)',
    [
      ['California', 'New Jersey', '55'],
      ['California', 'Colorado', '5'],
      ['New York', 'New Jersey', '3'],
      ['New Jersey', 'Connecticut', '225'],
      ['California', 'Connecticut', '1337'],
      ['California', null, '1397'],
      ['New York', null, '3'],
      ['New Jersey', null, '225'],
      [null, 'New Jersey', '58'],
      [null, 'Connecticut', '1562'],
      [null, 'Colorado', '5'],
      [null, null, '1625'],
    ],
    { unordered: true },
  ),
  c(
    'rollup',
    'SELECT origin_state, origin_zip, sum(package_weight) FROM shipping GROUP BY ROLLUP (origin_state, origin_zip)',
    [
      ['California', '94131', '60'],
      ['California', '90210', '1337'],
      ['New Jersey', '7081', '225'],
      ['New York', '10002', '3'],
      ['California', null, '1397'],
      ['New York', null, '3'],
      ['New Jersey', null, '225'],
      [null, null, '1625'],
    ],
    { unordered: true },
  ),
  c(
    'grouping-sets-times-rollup',
    `SELECT origin_state, destination_state, origin_zip, sum(package_weight) FROM shipping
     GROUP BY GROUPING SETS ((origin_state, destination_state)), ROLLUP (origin_zip)`,
    [
      ['New York', 'New Jersey', '10002', '3'],
      ['California', 'New Jersey', '94131', '55'],
      ['New Jersey', 'Connecticut', '7081', '225'],
      ['California', 'Connecticut', '90210', '1337'],
      ['California', 'Colorado', '94131', '5'],
      ['New York', 'New Jersey', null, '3'],
      ['New Jersey', 'Connecticut', null, '225'],
      ['California', 'Colorado', null, '5'],
      ['California', 'Connecticut', null, '1337'],
      ['California', 'New Jersey', null, '55'],
    ],
    { unordered: true },
  ),
  c(
    'group-by-distinct',
    `SELECT origin_state, destination_state, origin_zip, sum(package_weight) FROM shipping
     GROUP BY DISTINCT CUBE (origin_state, destination_state), ROLLUP (origin_state, origin_zip)`,
    [],
    {
      gap: {
        error: /^NOT_SUPPORTED: .*GROUP BY DISTINCT/,
        reason: 'DuckDB has no GROUP BY DISTINCT (de-duplicated grouping sets)',
      },
    },
  ),
  c(
    'grouping-operation',
    `SELECT origin_state, origin_zip, destination_state, sum(package_weight), grouping(origin_state, origin_zip, destination_state)
     FROM shipping GROUP BY GROUPING SETS ((origin_state), (origin_state, origin_zip), (destination_state))`,
    [
      ['California', null, null, '1397', '3'],
      ['New Jersey', null, null, '225', '3'],
      ['New York', null, null, '3', '3'],
      ['California', '94131', null, '60', '1'],
      ['New Jersey', '7081', null, '225', '1'],
      ['California', '90210', null, '1337', '1'],
      ['New York', '10002', null, '3', '1'],
      [null, null, 'New Jersey', '58', '6'],
      [null, null, 'Connecticut', '1562', '6'],
      [null, null, 'Colorado', '5', '6'],
    ],
    { unordered: true, types: ['varchar', 'integer', 'varchar', 'bigint', 'bigint'] },
  ),
  c(
    'having',
    'SELECT origin_state, sum(package_weight) AS total FROM shipping GROUP BY origin_state HAVING sum(package_weight) > 200 ORDER BY total DESC',
    [
      ['California', '1397'],
      ['New Jersey', '225'],
    ],
  ),
  c('group-by-ordinal', 'SELECT count(*), origin_state FROM shipping GROUP BY 2 ORDER BY 2', [
    ['4', 'California'],
    ['1', 'New Jersey'],
    ['1', 'New York'],
  ]),
  c('union', 'SELECT 13 UNION SELECT 42', [['13'], ['42']], { unordered: true }),
  c('union-distinct-values', 'SELECT 13 UNION SELECT * FROM (VALUES 42, 13)', [['13'], ['42']], {
    unordered: true,
  }),
  c('union-all', 'SELECT 13 UNION ALL SELECT * FROM (VALUES 42, 13)', [['13'], ['42'], ['13']], {
    unordered: true,
  }),
  c('intersect', 'SELECT * FROM (VALUES 13, 42) INTERSECT SELECT 13', [['13']]),
  c('except', 'SELECT * FROM (VALUES 13, 42) EXCEPT SELECT 13', [['42']]),
  c('intersect-binds-tighter', 'SELECT 1 UNION SELECT 2 INTERSECT SELECT 3', [['1']], {
    note: 'the page: "INTERSECT binds more tightly than EXCEPT and UNION"',
  }),
  c('offset-limit', 'SELECT * FROM (VALUES 5, 2, 4, 1, 3) t(x) ORDER BY x OFFSET 2 LIMIT 2', [['3'], ['4']]),
  c('fetch-first-row-only', 'SELECT x FROM (VALUES 5, 2, 4) t(x) ORDER BY x FETCH FIRST ROW ONLY', [['2']]),
  c(
    'fetch-first-with-ties',
    `SELECT name, regionkey FROM ${NATION} ORDER BY regionkey FETCH FIRST ROW WITH TIES`,
    [
      ['ETHIOPIA', '0'],
      ['MOROCCO', '0'],
      ['KENYA', '0'],
      ['ALGERIA', '0'],
      ['MOZAMBIQUE', '0'],
    ],
    { unordered: true, note: "the page's nation example on the nations of its result and two more" },
  ),
  c('limit-all', 'SELECT x FROM (VALUES 1, 2) t(x) ORDER BY x LIMIT ALL', [['1'], ['2']]),
  c('unnest-array', 'SELECT * FROM UNNEST(ARRAY[1,2]) AS t(number)', [['1'], ['2']]),
  c(
    'unnest-map',
    "SELECT * FROM UNNEST(map_from_entries(ARRAY[('SQL',1974), ('Java', 1995)])) AS t(language, first_appeared_year)",
    [
      ['SQL', '1974'],
      ['Java', '1995'],
    ],
  ),
  c(
    'unnest-rows',
    "SELECT * FROM UNNEST(ARRAY[ROW('Java',  1995), ROW('SQL' , 1974)], ARRAY[ROW(false), ROW(true)]) as t(language,first_appeared_year,declarative)",
    [
      ['Java', '1995', 'false'],
      ['SQL', '1974', 'true'],
    ],
  ),
  c(
    'unnest-with-ordinality',
    'SELECT a, b, rownumber FROM UNNEST (ARRAY[2, 5], ARRAY[7, 8, 9]) WITH ORDINALITY AS t(a, b, rownumber)',
    [
      ['2', '7', '1'],
      ['5', '8', '2'],
      [null, '9', '3'],
    ],
  ),
  c('unnest-empty', 'SELECT * FROM UNNEST (ARRAY[]) AS t(value)', []),
  c('unnest-null', 'SELECT * FROM UNNEST (CAST(null AS ARRAY(integer))) AS t(number)', []),
  c(
    'cross-join-unnest',
    "SELECT student, score FROM (VALUES ('John', ARRAY[7, 10, 9]), ('Mary', ARRAY[4, 8, 9])) AS tests (student, scores) CROSS JOIN UNNEST(scores) AS t(score)",
    [
      ['John', '7'],
      ['John', '10'],
      ['John', '9'],
      ['Mary', '4'],
      ['Mary', '8'],
      ['Mary', '9'],
    ],
    { unordered: true },
  ),
  c(
    'cross-join-unnest-padded',
    "SELECT numbers, animals, n, a FROM (VALUES (ARRAY[2, 5], ARRAY['dog', 'cat', 'bird']), (ARRAY[7, 8, 9], ARRAY['cow', 'pig'])) AS x (numbers, animals) CROSS JOIN UNNEST(numbers, animals) AS t (n, a)",
    [
      ['[2, 5]', '[dog, cat, bird]', '2', 'dog'],
      ['[2, 5]', '[dog, cat, bird]', '5', 'cat'],
      ['[2, 5]', '[dog, cat, bird]', null, 'bird'],
      ['[7, 8, 9]', '[cow, pig]', '7', 'cow'],
      ['[7, 8, 9]', '[cow, pig]', '8', 'pig'],
      ['[7, 8, 9]', '[cow, pig]', '9', null],
    ],
    { unordered: true },
  ),
  c(
    'left-join-unnest',
    "SELECT runner, checkpoint FROM (VALUES ('Joe', ARRAY[10, 20, 30, 42]), ('Roger', ARRAY[10]), ('Dave', ARRAY[]), ('Levi', NULL)) AS marathon (runner, checkpoints) LEFT JOIN UNNEST(checkpoints) AS t(checkpoint) ON TRUE",
    [
      ['Joe', '10'],
      ['Joe', '20'],
      ['Joe', '30'],
      ['Joe', '42'],
      ['Roger', '10'],
      ['Dave', null],
      ['Levi', null],
    ],
    { unordered: true },
  ),
  c(
    'with-chained',
    'WITH x AS (SELECT a FROM (VALUES 1, 2) t(a)), y AS (SELECT a AS b FROM x), z AS (SELECT b AS c FROM y) SELECT c FROM z ORDER BY c',
    [['1'], ['2']],
  ),
  c(
    'with-recursive',
    'WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM t WHERE n < 4) SELECT sum(n) FROM t',
    [['10']],
  ),
  c(
    'lateral',
    "SELECT name, x, y FROM (VALUES 'ALGERIA') AS nation(name) CROSS JOIN LATERAL (SELECT name || ' :-' AS x) CROSS JOIN LATERAL (SELECT x || ')' AS y)",
    [['ALGERIA', 'ALGERIA :-', 'ALGERIA :-)']],
  ),
  c(
    'ambiguous-column',
    "SELECT name FROM (VALUES 'KENYA') AS nation(name) CROSS JOIN (VALUES 'AFRICA') AS region(name)",
    [],
    { error: /^AMBIGUOUS_NAME: .*Column 'name' is ambiguous/ },
  ),
  c(
    'exists',
    `SELECT name FROM ${NATION} WHERE EXISTS (SELECT * FROM (VALUES 2) AS region(regionkey) WHERE region.regionkey = nation.regionkey)`,
    [['CHINA']],
  ),
  c(
    'scalar-subquery',
    `SELECT name FROM ${NATION} WHERE regionkey = (SELECT max(regionkey) FROM (VALUES 1, 2) AS region(regionkey))`,
    [['CHINA']],
  ),
  c(
    'row-expression-star',
    'SELECT (CAST(ROW(1, true) AS ROW(field1 bigint, field2 boolean))).* AS (alias1, alias2)',
    [['1', 'true']],
    {
      gap: {
        error: /^NOT_SUPPORTED: .*Expanding a row expression into columns/,
        reason: "`row_expression.*` select items (Trino's expansion of a row's fields) are not translated",
      },
    },
  ),
  c(
    'select-star-types',
    "WITH t AS (SELECT TIMESTAMP '2024-01-01 10:00:00.123456 UTC' AS ts, 1.50 AS d) SELECT * FROM t",
    [['2024-01-01 10:00:00.123456 UTC', '1.50']],
    {
      types: ['timestamp(6) with time zone', 'decimal(3,2)'],
      note: "a star reads its columns' types: a literal's precision is the digits written (the types page)",
    },
  ),
  c('syntax-error-refused', 'SELEC 1', [], {
    source: 'https://docs.aws.amazon.com/athena/latest/APIReference/API_StartQueryExecution.html',
    refusedAtSubmission: true,
    error: /^line 1:1: mismatched input 'SELEC'\. Expecting: /,
    ours: "the message form: the API reference lists only InvalidRequestException; users quote Athena's (guardian/athena-cli#39, awslabs/aws-well-architected-labs#502: `line 1:10: mismatched input '<EOF>'. Expecting: ...`)",
  }),
  c('tablesample', 'SELECT count(*) FROM shipping TABLESAMPLE BERNOULLI (50)', [], {
    gap: { error: /^NOT_SUPPORTED: .*TABLESAMPLE/, reason: 'sampling is not translated to DuckDB' },
  }),
];
