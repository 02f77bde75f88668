// Trino's URL functions: the page's examples, and each function's stated result on a URL of the form the page
// gives (`[protocol:][//host[:port]][path][?query][#fragment]`, components without their separators).
import { pageCases, type CorpusCase } from '../case';

const PAGE = 'https://trino.io/docs/current/functions/url.html';
const URL = "'http://www.example.com:8080/path/to/page?q=trino&lang=en#section'";
const DEFINITION = "the page's definition of the function on its URL form (it shows no result)";

const c = pageCases('url', PAGE);

export const URL_FUNCTIONS: CorpusCase[] = [
  c(
    'extract-protocol',
    "SELECT url_extract_protocol('http://localhost:8080/req_path'), url_extract_protocol('https://127.0.0.1:8080/req_path'), url_extract_protocol('ftp://path/file')",
    [['http', 'https', 'ftp']],
    { types: ['varchar', 'varchar', 'varchar'] },
  ),
  c(
    'extract-parts',
    `SELECT url_extract_host(${URL}), url_extract_port(${URL}), url_extract_path(${URL}), url_extract_query(${URL}), url_extract_fragment(${URL})`,
    [['www.example.com', '8080', '/path/to/page', 'q=trino&lang=en', 'section']],
    { types: ['varchar', 'bigint', 'varchar', 'varchar', 'varchar'], ours: DEFINITION },
  ),
  c(
    'extract-parameter',
    `SELECT url_extract_parameter(${URL}, 'lang'), url_extract_parameter(${URL}, 'missing')`,
    [['en', null]],
    { ours: DEFINITION },
  ),
  c('encode', "SELECT url_encode('a b/c*d_e.f-g~')", [['a+b%2Fc*d_e.f-g%7E']], {
    note: 'the page: alphanumerics and . - * _ kept, a space as +, other bytes as %XX in upper case',
  }),
  c('decode', "SELECT url_decode('a+b%2Fc*d_e.f-g%7E')", [['a b/c*d_e.f-g~']], {
    note: 'the page: url_decode is the inverse of url_encode',
  }),
];
