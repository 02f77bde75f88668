// Trino's string functions and operators, regular expression functions and LIKE: the pages' examples, and each
// function's stated result where the page gives none.
import { familyCases, type CorpusCase } from '../case';

const STRING = 'https://trino.io/docs/current/functions/string.html';
const REGEXP = 'https://trino.io/docs/current/functions/regexp.html';
const LIKE = 'https://trino.io/docs/current/functions/comparison.html#like-operator';
const CONTINENTS =
  "(VALUES 'America', 'Asia', 'Africa', 'Europe', 'Australia', 'Antarctica') AS t (continent)";

const c = familyCases('string-regex');

export const STRING_REGEX: CorpusCase[] = [
  c('concat-operator', STRING, "SELECT 'a' || 'b' || 'c', concat('a', 'b', 'c')", [['abc', 'abc']]),
  c('concat-ws-skips-null', STRING, "SELECT concat_ws(',', 'a', NULL, 'b')", [['a,b']], {
    note: 'the page: "Any null values provided in the arguments after the separator are skipped"',
  }),
  c('title-case', STRING, "SELECT title_case('hello world')", [['Hello World']]),
  c(
    'substring-negative-start',
    STRING,
    "SELECT substring('abcdef', -2), substr('abcdef', 2, 3), substring('abcdef' FROM 2 FOR 3)",
    [['ef', 'bcd', 'bcd']],
    {
      note: 'the page: "A negative starting position is interpreted as being relative to the end of the string"',
      ours: 'the SQL-standard FROM ... FOR form (Trino grammar) gives the same substring',
    },
  ),
  c(
    'normalize-nfc',
    STRING,
    "SELECT length(normalize(from_utf8(from_hex('65CC81')))), length(from_utf8(from_hex('65CC81')))",
    [['1', '2']],
    { ours: "the page's definition (NFC composes e + U+0301 into one character); it shows no result" },
  ),
  c('normalize-nfd', STRING, "SELECT length(normalize(from_utf8(from_hex('C3A9')), NFD))", [['2']], {
    ours: "the page's definition (NFD decomposes é into two characters); it shows no result",
    gap: { error: /^NOT_SUPPORTED: .*normalize to NFD/, reason: 'DuckDB normalizes to NFC only' },
  }),
  c('luhn-check', STRING, "SELECT luhn_check('79927398713'), luhn_check('79927398714')", [['true', 'false']]),
  c('luhn-check-null', STRING, 'SELECT luhn_check(CAST(NULL AS varchar))', [[null]]),
  c('overlay', STRING, "SELECT overlay('Txxxxas' PLACING 'hom' FROM 2 FOR 4)", [['Thomas']]),
  c('position', STRING, "SELECT position('ig' IN 'high'), strpos('high', 'ig'), strpos('high', 'x')", [
    ['2', '2', '0'],
  ]),
  c(
    'replace-two-arguments',
    STRING,
    "SELECT replace('abcb', 'b'), replace('abcb', 'b', 'x')",
    [['ac', 'axcx']],
    {
      note: 'the page: replace(string, search) "Removes all instances of search from string"',
    },
  ),
  c(
    'reverse-lower-upper-length',
    STRING,
    "SELECT reverse('abc'), lower('AbC'), upper('AbC'), length('héllo')",
    [['cba', 'abc', 'ABC', '5']],
  ),
  c('lpad-rpad', STRING, "SELECT lpad('abc', 5, '*'), rpad('abc', 5, '*'), lpad('abcdef', 3, '*')", [
    ['**abc', 'abc**', 'abc'],
  ]),
  c('split', STRING, "SELECT split('a.b.c', '.')", [['[a, b, c]']], { types: ['array(varchar)'] }),
  c('split-limit', STRING, "SELECT split('a.b.c', '.', 2)", [['[a, b.c]']], {
    note: 'the page: "The last element in the array always contain everything left in the string"',
  }),
  c('split-part', STRING, "SELECT split_part('a,b,c', ',', 2)", [['b']]),
  c('split-part-past-the-end', STRING, "SELECT split_part('a,b,c', ',', 4)", [[null]], {
    note: 'the page: "If the index is larger than the number of fields, then null is returned"',
  }),
  c('split-to-map', STRING, "SELECT split_to_map('a=1,b=2', ',', '=')", [['{a=1, b=2}']], {
    unorderedMaps: true,
  }),
  c('starts-ends-with', STRING, "SELECT starts_with('trino', 'tr'), ends_with('trino', 'no')", [
    ['true', 'true'],
  ]),
  c('substring', STRING, "SELECT substring('Trino', 2, 3), substr('Trino', -3), substring('Trino', 3)", [
    ['rin', 'ino', 'ino'],
  ]),
  c('chr-codepoint', STRING, "SELECT chr(65), codepoint('A')", [['A', '65']]),
  c(
    'levenshtein-hamming',
    STRING,
    "SELECT levenshtein_distance('kitten', 'sitting'), hamming_distance('abc', 'abd')",
    [['3', '1']],
  ),
  ...(
    [
      ["translate('abcd', '', '')", 'abcd'],
      ["translate('abcd', 'a', 'z')", 'zbcd'],
      ["translate('abcda', 'a', 'z')", 'zbcdz'],
      ["translate('Palhoça', 'ç','c')", 'Palhoca'],
      ["translate('abcd', 'a', '')", 'bcd'],
      ["translate('abcd', 'a', 'zy')", 'zbcd'],
      ["translate('abcd', 'ac', 'z')", 'zbd'],
      ["translate('abcd', 'aac', 'zq')", 'zbd'],
    ] as const
  ).map(([call, value], i) => c(`translate-${i + 1}`, STRING, `SELECT ${call}`, [[value]])),
  c('trim-character', STRING, "SELECT trim('!' FROM '!foo!')", [['foo']]),
  c('trim-leading', STRING, "SELECT trim(LEADING FROM '  abcd')", [['abcd']]),
  c('trim-both', STRING, "SELECT trim(BOTH '$' FROM '$var$')", [['var']]),
  c('trim-trailing', STRING, "SELECT trim(TRAILING 'ER' FROM upper('worker'))", [['WORK']]),
  c('trim-whitespace', STRING, "SELECT trim('  a  '), ltrim('  a'), rtrim('a  ')", [['a', 'a', 'a']]),
  c('utf8', STRING, "SELECT from_utf8(to_utf8('héllo'))", [['héllo']]),
  c('regexp-count', REGEXP, "SELECT regexp_count('1a 2b 14m', '\\s*[a-z]+\\s*')", [['3']]),
  c('regexp-extract-all', REGEXP, "SELECT regexp_extract_all('1a 2b 14m', '\\d+')", [['[1, 2, 14]']]),
  c('regexp-extract-all-group', REGEXP, "SELECT regexp_extract_all('1a 2b 14m', '(\\d+)([a-z]+)', 2)", [
    ['[a, b, m]'],
  ]),
  c('regexp-extract', REGEXP, "SELECT regexp_extract('1a 2b 14m', '\\d+')", [['1']]),
  c('regexp-extract-group', REGEXP, "SELECT regexp_extract('1a 2b 14m', '(\\d+)([a-z]+)', 2)", [['a']]),
  c('regexp-extract-no-match', REGEXP, "SELECT regexp_extract('abc', '\\d+')", [[null]], {
    note: 'Trino returns NULL when the pattern does not match',
  }),
  c('regexp-like', REGEXP, "SELECT regexp_like('1a 2b 14m', '\\d+b')", [['true']]),
  c(
    'regexp-position',
    REGEXP,
    "SELECT regexp_position('I have 23 apples, 5 pears and 13 oranges', '\\b\\d+\\b')",
    [['8']],
  ),
  c(
    'regexp-position-start',
    REGEXP,
    "SELECT regexp_position('I have 23 apples, 5 pears and 13 oranges', '\\b\\d+\\b', 5), regexp_position('I have 23 apples, 5 pears and 13 oranges', '\\b\\d+\\b', 12)",
    [['8', '19']],
  ),
  c(
    'regexp-position-occurrence',
    REGEXP,
    "SELECT regexp_position('I have 23 apples, 5 pears and 13 oranges', '\\b\\d+\\b', 12, 2)",
    [['31']],
    {
      gap: {
        error: /^NOT_SUPPORTED: .*regexp_position with an occurrence/,
        reason: 'regexp_position with an occurrence argument has no DuckDB counterpart',
      },
    },
  ),
  c('regexp-replace-remove', REGEXP, "SELECT regexp_replace('1a 2b 14m', '\\d+[ab] ')", [['14m']]),
  c('regexp-replace-groups', REGEXP, "SELECT regexp_replace('1a 2b 14m', '(\\d+)([ab]) ', '3c$2 ')", [
    ['3ca 3cb 14m'],
  ]),
  c(
    'regexp-replace-lambda',
    REGEXP,
    "SELECT regexp_replace('new york', '(\\w)(\\w*)', x -> upper(x[1]) || lower(x[2]))",
    [['New York']],
    {
      gap: {
        error: /^NOT_SUPPORTED: .*regexp_replace with a lambda/,
        reason: 'DuckDB regexp_replace takes no function for the replacement',
      },
    },
  ),
  c('regexp-split', REGEXP, "SELECT regexp_split('1a 2b 14m', '\\s*[a-z]+\\s*')", [['[1, 2, 14, ]']], {
    note: 'the page: "Trailing empty strings are preserved"',
  }),
  c('like-prefix', LIKE, `SELECT * FROM ${CONTINENTS} WHERE continent LIKE 'E%'`, [['Europe']]),
  c(
    'not-like',
    LIKE,
    `SELECT * FROM ${CONTINENTS} WHERE continent NOT LIKE 'E%'`,
    [['America'], ['Asia'], ['Africa'], ['Australia'], ['Antarctica']],
    { unordered: true },
  ),
  c('like-underscores', LIKE, `SELECT * FROM ${CONTINENTS} WHERE continent LIKE 'A__A'`, [], {
    note: "the page says this produces Asia, but its own rule — \"Matching characters is case sensitive\" — makes 'Asia' not match 'A__A'",
  }),
  c('like-underscores-case', LIKE, `SELECT * FROM ${CONTINENTS} WHERE continent LIKE 'A__a'`, [['Asia']]),
  c('like-escape', LIKE, "SELECT 'South_America' LIKE 'South\\_America' ESCAPE '\\'", [['true']]),
];
