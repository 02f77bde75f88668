// The whole conformance corpus, by family, and the fixtures it needs (tables the pages' examples query).
import type { CorpusCase } from './case';
import { AGGREGATE } from './families/aggregate';
import { ARRAY_MAP } from './families/array-map';
import { CONDITIONAL_COMPARISON } from './families/conditional-comparison';
import { CONVERSION } from './families/conversion';
import { DATE_TIME } from './families/date-time';
import { DECIMAL } from './families/decimal';
import { ICEBERG_DDL_DML } from './families/iceberg-ddl-dml';
import { IP_ADDRESS } from './families/ip-address';
import { JSON_FUNCTIONS } from './families/json';
import { SELECT_CLAUSES, SHIPPING_FIXTURE } from './families/select-clauses';
import { STRING_REGEX } from './families/string-regex';
import { URL_FUNCTIONS } from './families/url';
import { WINDOW } from './families/window';

export const CORPUS: readonly CorpusCase[] = [
  ...DATE_TIME,
  ...DECIMAL,
  ...JSON_FUNCTIONS,
  ...URL_FUNCTIONS,
  ...AGGREGATE,
  ...WINDOW,
  ...STRING_REGEX,
  ...IP_ADDRESS,
  ...ARRAY_MAP,
  ...CONDITIONAL_COMPARISON,
  ...CONVERSION,
  ...SELECT_CLAUSES,
  ...ICEBERG_DDL_DML,
];

/** Statements run once, in order, before the cases. */
export const CORPUS_FIXTURES: readonly string[] = [...SHIPPING_FIXTURE];
