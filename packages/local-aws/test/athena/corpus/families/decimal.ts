// Trino's decimal literals and operators: the page's literal types and its table of result types. Values of
// division are rounded half up at the result's scale (trinodb/trino DecimalOperators; the page does not say).
import { pageCases, type CorpusCase } from '../case';

const PAGE = 'https://trino.io/docs/current/functions/decimal.html';

const c = pageCases('decimal', PAGE);

export const DECIMAL: CorpusCase[] = [
  c(
    'literal-types',
    "SELECT typeof(DECIMAL '0'), typeof(DECIMAL '12345'), typeof(DECIMAL '0000012345.1234500000')",
    [['decimal(1,0)', 'decimal(5,0)', 'decimal(20,10)']],
    { note: "the page writes DECIMAL(1) for decimal(1,0); typeof spells Trino's type names" },
  ),
  c('literal-value', "SELECT DECIMAL '0000012345.1234500000'", [['12345.1234500000']], {
    types: ['decimal(20,10)'],
  }),
  c(
    'addition',
    "SELECT DECIMAL '1.5' + DECIMAL '10.25', DECIMAL '1.5' - DECIMAL '10.25'",
    [['11.75', '-8.75']],
    {
      types: ['decimal(5,2)', 'decimal(5,2)'],
      note: 'precision min(38, 1 + max(xs, ys) + max(xp - xs, yp - ys)) = 5, scale max(xs, ys) = 2',
    },
  ),
  c('multiplication', "SELECT DECIMAL '1.5' * DECIMAL '10.25'", [['15.375']], {
    types: ['decimal(6,3)'],
    note: 'precision min(38, xp + yp) = 6, scale xs + ys = 3',
  }),
  c('division', "SELECT DECIMAL '10' / DECIMAL '4', DECIMAL '9' / DECIMAL '4'", [['3', '2']], {
    types: ['decimal(2,0)', 'decimal(1,0)'],
    note: "scale max(xs, ys) = 0 (the two precision formulas, the page's and Trino's code, agree at scale 0)",
    ours: 'the rounding of 2.5 to 3 (half up): trinodb/trino DecimalOperators.divide; the page gives none',
  }),
  c('division-scale', 'SELECT 1.0 / 3', [['0.3']], {
    note: "scale max(xs, ys) = 1: an integer is decimal(10,0); no type asserted, as the page's precision formula (xp + ys - xs + max(0, ys - xs)) differs from the one Trino computes (xp + ys + max(ys - xs, 0))",
  }),
  c('modulus', "SELECT DECIMAL '7.5' % DECIMAL '2'", [['1.5']], {
    types: ['decimal(2,1)'],
    note: 'precision min(xp - xs, yp - ys) + max(xs, ys) = 2, scale max(xs, ys) = 1',
  }),
  c('negation', "SELECT -DECIMAL '1.5'", [['-1.5']], {
    types: ['decimal(2,1)'],
    note: 'the page: "The type of result is same as type of argument"',
  }),
  c('average', "SELECT avg(x) FROM (VALUES DECIMAL '1.10', DECIMAL '2.25') AS t(x)", [['1.68']], {
    source: 'https://trino.io/docs/current/functions/aggregate.html',
    types: ['decimal(3,2)'],
    ours: 'avg of decimal(p,s) is decimal(p,s), rounded half up: trinodb/trino DecimalAverageAggregation (the page lists avg(x) -> double only)',
  }),
];
