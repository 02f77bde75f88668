// Trino's conditional expressions (CASE, IF, COALESCE, NULLIF, TRY) and comparison functions and operators
// (BETWEEN, IS [NOT] DISTINCT FROM, GREATEST/LEAST, quantified comparisons, IN): the pages' examples.
import { familyCases, type CorpusCase } from '../case';

const CONDITIONAL = 'https://trino.io/docs/current/functions/conditional.html';
const COMPARISON = 'https://trino.io/docs/current/functions/comparison.html';
const CONVERSION = 'https://trino.io/docs/current/functions/conversion.html';

/** The page's TRY example table (shipping with an invalid zip code and a zero package count). */
const SHIPPING = `(VALUES ('California', '94131', 25, 100), ('California', 'P332a', 5, 72), ('California', '94025', 0, 155),
  ('New Jersey', '08544', 225, 490)) AS shipping(origin_state, origin_zip, packages, total_cost)`;

const c = familyCases('conditional-comparison');

export const CONDITIONAL_COMPARISON: CorpusCase[] = [
  c(
    'case-simple',
    CONDITIONAL,
    "SELECT a, CASE a WHEN 1 THEN 'one' WHEN 2 THEN 'two' ELSE 'many' END FROM (VALUES 1, 2, 3) AS t(a) ORDER BY a",
    [
      ['1', 'one'],
      ['2', 'two'],
      ['3', 'many'],
    ],
  ),
  c(
    'case-searched',
    CONDITIONAL,
    "SELECT a, b, CASE WHEN a = 1 THEN 'aaa' WHEN b = 2 THEN 'bbb' ELSE 'ccc' END FROM (VALUES (1, 1), (2, 2), (3, 3)) AS t(a, b) ORDER BY a",
    [
      ['1', '1', 'aaa'],
      ['2', '2', 'bbb'],
      ['3', '3', 'ccc'],
    ],
  ),
  c('if-two-arguments', CONDITIONAL, "SELECT if(1 > 2, 'yes'), if(1 < 2, 'yes')", [[null, 'yes']]),
  c(
    'if-three-arguments',
    CONDITIONAL,
    "SELECT IF(totalprice >= 150000, 'High Value', 'Low Value') FROM (VALUES 200000, 100) AS orders(totalprice)",
    [['High Value'], ['Low Value']],
  ),
  c('coalesce', CONDITIONAL, 'SELECT coalesce(NULL, NULL, 3, 4)', [['3']]),
  c('nullif', CONDITIONAL, 'SELECT nullif(1, 1), nullif(1, 2)', [[null, '1']]),
  c('cast-fails-without-try', CONDITIONAL, `SELECT CAST(origin_zip AS BIGINT) FROM ${SHIPPING}`, [], {
    error: "INVALID_CAST_ARGUMENT: Cannot cast 'P332a' to BIGINT",
  }),
  c(
    'try-cast-failure-is-null',
    CONDITIONAL,
    `SELECT TRY(CAST(origin_zip AS BIGINT)) FROM ${SHIPPING}`,
    [['94131'], [null], ['94025'], ['8544']],
    { note: 'the page prints the zip code column as written (08544); as a BIGINT it is 8544' },
  ),
  c(
    'division-fails-without-try',
    CONDITIONAL,
    `SELECT total_cost / packages AS per_package FROM ${SHIPPING}`,
    [],
    {
      error: 'DIVISION_BY_ZERO: Division by zero',
    },
  ),
  c(
    'try-division-with-coalesce',
    CONDITIONAL,
    `SELECT COALESCE(TRY(total_cost / packages), 0) AS per_package FROM ${SHIPPING}`,
    [['4'], ['14'], ['0'], ['2']],
    { note: 'the page shows 19 for the last row; 490 / 225 is 2 in integer division' },
  ),
  c('between', COMPARISON, 'SELECT 3 BETWEEN 2 AND 6, 3 NOT BETWEEN 2 AND 6', [['true', 'false']]),
  c(
    'between-nulls',
    COMPARISON,
    'SELECT NULL BETWEEN 2 AND 4, 2 BETWEEN NULL AND 6, 2 BETWEEN 3 AND NULL, 8 BETWEEN NULL AND 6',
    [[null, null, 'false', 'false']],
  ),
  c('between-varchar', COMPARISON, "SELECT 'Paul' BETWEEN 'John' AND 'Ringo'", [['true']]),
  c('is-null', COMPARISON, 'SELECT NULL IS NULL, 3.0 IS NULL', [['true', 'false']]),
  c('is-distinct-null', COMPARISON, 'SELECT NULL IS DISTINCT FROM NULL, NULL IS NOT DISTINCT FROM NULL', [
    ['false', 'true'],
  ]),
  c(
    'distinct-truth-table',
    COMPARISON,
    'SELECT a = b, a <> b, a IS DISTINCT FROM b, a IS NOT DISTINCT FROM b FROM (VALUES (1, 1, 1), (2, 1, 2), (3, 1, NULL), (4, NULL, NULL)) AS t(k, a, b) ORDER BY k',
    [
      ['true', 'false', 'false', 'true'],
      ['false', 'true', 'true', 'false'],
      [null, null, 'true', 'false'],
      [null, null, 'false', 'true'],
    ],
  ),
  c('greatest-least', COMPARISON, 'SELECT greatest(1, 5, 3), least(1, 5, 3)', [['5', '1']]),
  c('greatest-least-null', COMPARISON, 'SELECT greatest(1, NULL, 3), least(1, NULL, 3)', [[null, null]], {
    note: 'the page: "they return null if any argument is null"',
  }),
  c('any', COMPARISON, "SELECT 'hello' = ANY (VALUES 'hello', 'world')", [['true']]),
  c('all', COMPARISON, 'SELECT 21 < ALL (VALUES 19, 20, 21)', [['false']]),
  c('some', COMPARISON, 'SELECT 42 >= SOME (SELECT 41 UNION ALL SELECT 42 UNION ALL SELECT 43)', [['true']]),
  c(
    'in-list',
    COMPARISON,
    "SELECT name FROM (VALUES 'AFRICA', 'AMERICA', 'ASIA', 'EUROPE') AS region(name) WHERE name IN ('AMERICA', 'EUROPE') ORDER BY name",
    [['AMERICA'], ['EUROPE']],
  ),
  c(
    'not-in-list',
    COMPARISON,
    "SELECT name FROM (VALUES 'AFRICA', 'AMERICA', 'ASIA', 'EUROPE') AS region(name) WHERE name NOT IN ('AMERICA', 'EUROPE') ORDER BY name",
    [['AFRICA'], ['ASIA']],
  ),
  c('varchar-equals-integer', CONVERSION, "SELECT 'a' = 1", [], {
    error: 'TYPE_MISMATCH: line 1:12: Cannot apply operator: varchar(1) = integer',
    note: 'the page: "Trino will not convert between character and numeric types"',
  }),
  c(
    'column-compared-with-string',
    CONVERSION,
    "SELECT count(*) FROM (VALUES 443, 22) AS t(port) WHERE port = '443'",
    [],
    {
      error: 'TYPE_MISMATCH: line 1:61: Cannot apply operator: integer = varchar(3)',
    },
  ),
];
