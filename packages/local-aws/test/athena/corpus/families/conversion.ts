// Trino's conversion functions (CAST, TRY_CAST, format, parse_data_size, typeof) and the cast failures Trino names:
// the page's examples, and the texts of Trino's casts (VarcharOperators "Cannot cast '%s' to BIGINT",
// DateOperators "Value cannot be cast to date: ", the integer casts "Out of range for tinyint: ").
import { pageCases, type CorpusCase } from '../case';

const PAGE = 'https://trino.io/docs/current/functions/conversion.html';
const TYPES = 'https://trino.io/docs/current/language/types.html';

const c = pageCases('conversion', PAGE);

export const CONVERSION: CorpusCase[] = [
  c('cast-varchar-to-number', "SELECT CAST('123' AS bigint), CAST('1.5' AS double)", [['123', '1.5']], {
    types: ['bigint', 'double'],
  }),
  c('cast-number-to-varchar', 'SELECT CAST(123 AS varchar), CAST(true AS varchar)', [['123', 'true']]),
  c('try-cast', "SELECT try_cast('abc' AS bigint), try_cast('12' AS integer)", [[null, '12']]),
  c('cast-failure-integer', "SELECT CAST('abc' AS integer)", [], {
    error: "INVALID_CAST_ARGUMENT: Cannot cast 'abc' to INT",
  }),
  c('cast-failure-date', "SELECT CAST('2024-13-45' AS date)", [], {
    error: 'INVALID_CAST_ARGUMENT: Value cannot be cast to date: 2024-13-45',
  }),
  c('cast-out-of-range', 'SELECT CAST(300 AS tinyint)', [], {
    error: 'NUMERIC_VALUE_OUT_OF_RANGE: Out of range for tinyint: 300',
  }),
  c('cast-timestamp-to-varchar', "SELECT CAST(TIMESTAMP '2024-05-01 10:00:00.123' AS varchar)", [
    ['2024-05-01 10:00:00.123'],
  ]),
  c(
    'cast-to-timestamp-precision',
    "SELECT CAST('2024-05-01 10:00:00' AS timestamp)",
    [['2024-05-01 10:00:00.000']],
    {
      source: TYPES,
      types: ['timestamp(3)'],
      note: 'the types page: TIMESTAMP is an alias for TIMESTAMP(3)',
    },
  ),
  c('cast-to-decimal', "SELECT CAST('12.345' AS decimal(10, 2))", [['12.35']], { types: ['decimal(10,2)'] }),
  c('format-percent', "SELECT format('%s%%', 123)", [['123%']]),
  c('format-float', "SELECT format('%.5f', pi())", [['3.14159']]),
  c('format-zero-padded', "SELECT format('%03d', 8)", [['008']]),
  c('format-grouping', "SELECT format('%,.2f', 1234567.89)", [['1,234,567.89']]),
  c('format-justified', "SELECT format('%-7s,%7s', 'hello', 'world')", [['hello  ,  world']]),
  c('format-positional', "SELECT format('%2$s %3$s %1$s', 'a', 'b', 'c')", [['b c a']]),
  c('format-number', 'SELECT format_number(123456), format_number(1000000)', [['123K', '1M']], {
    gap: { error: /^NOT_SUPPORTED: .*format_number/, reason: 'format_number has no DuckDB counterpart' },
  }),
  c(
    'parse-data-size',
    "SELECT parse_data_size('1B'), parse_data_size('1kB'), parse_data_size('1MB'), parse_data_size('2.3MB')",
    [['1', '1024', '1048576', '2411724']],
  ),
  c('typeof', "SELECT typeof(123), typeof('cat'), typeof(cos(2) + 1.5)", [
    ['integer', 'varchar(3)', 'double'],
  ]),
  c('no-implicit-number-to-varchar', "SELECT 'port ' || 443", [], {
    error:
      /^FUNCTION_NOT_FOUND: line 1:16: Unexpected parameters \(varchar\(5\), integer\) for function concat\. Expected: /,
    note: 'the page: "Trino will not convert between character and numeric types"',
    ours: "the error's name and text: Trino's function resolver (FunctionResolver), as its own tests quote it",
  }),
  c('no-implicit-number-to-varchar-concat', "SELECT concat('a', 1)", [], {
    error:
      /^FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters \(varchar\(1\), integer\) for function concat/,
    note: 'the page: "Trino will not convert between character and numeric types"',
    ours: "the error's name and text: Trino's function resolver (FunctionResolver)",
  }),
  c(
    'cast-double-to-integer',
    "SELECT CAST(2.5e0 AS integer), CAST(-2.5e0 AS integer), CAST(REAL '1.5' AS bigint)",
    [['3', '-3', '2']],
    {
      types: ['integer', 'integer', 'bigint'],
      ours: 'rounding half away from zero: trinodb/trino DoubleOperators/RealOperators (Math.round semantics); the page gives no example',
    },
  ),
  c('cast-varchar-to-integer-strict', "SELECT CAST('1.9' AS bigint)", [], {
    error: "INVALID_CAST_ARGUMENT: Cannot cast '1.9' to BIGINT",
    ours: "the text of Trino's VarcharOperators.castToBigint (Long.parseLong refuses a fraction and spaces)",
  }),
  c(
    'try-cast-varchar-to-integer-strict',
    "SELECT TRY(CAST('1.9' AS bigint)), try_cast(' 12 ' AS integer)",
    [[null, null]],
    {
      note: 'the page: try_cast "returns null if the cast fails"',
      ours: "that ' 12 ' fails: Trino parses with Integer.parseInt, which refuses spaces",
    },
  ),
  c('integer-overflow', 'SELECT 2147483647 + 1', [], {
    error: 'NUMERIC_VALUE_OUT_OF_RANGE: integer addition overflow: 2147483647 + 1',
    source: 'https://trino.io/docs/current/functions/math.html',
    ours: "the text of Trino's IntegerOperators.add; the page does not show the failure",
  }),
  c('date-alias', "SELECT date('2024-05-01'), CAST('2024-05-01' AS date)", [['2024-05-01', '2024-05-01']]),
];
