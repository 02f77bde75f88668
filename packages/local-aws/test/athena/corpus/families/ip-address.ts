// Trino's IPADDRESS type and IP address functions: the contains() examples of the functions page, the literals of
// the types page, and the casts, ordering and errors those pages state (the flow-log analyst's bread and butter:
// `contains('10.0.0.0/8', CAST(srcaddr AS IPADDRESS))`).
import { familyCases, type CorpusCase } from '../case';

const FUNCTIONS = 'https://trino.io/docs/current/functions/ipaddress.html';
const TYPES = 'https://trino.io/docs/current/language/types.html#ipaddress';

const c = familyCases('ip-address');

export const IP_ADDRESS: CorpusCase[] = [
  c('contains-v4-in', FUNCTIONS, "SELECT contains('10.0.0.0/8', IPADDRESS '10.255.255.255')", [['true']], {
    types: ['boolean'],
  }),
  c('contains-v4-out', FUNCTIONS, "SELECT contains('10.0.0.0/8', IPADDRESS '11.255.255.255')", [['false']]),
  c(
    'contains-v6-in',
    FUNCTIONS,
    "SELECT contains('2001:0db8:0:0:0:ff00:0042:8329/128', IPADDRESS '2001:0db8:0:0:0:ff00:0042:8329')",
    [['true']],
  ),
  c(
    'contains-v6-out',
    FUNCTIONS,
    "SELECT contains('2001:0db8:0:0:0:ff00:0042:8329/128', IPADDRESS '2001:0db8:0:0:0:ff00:0042:8328')",
    [['false']],
  ),
  c('literal-v4', TYPES, "SELECT IPADDRESS '10.0.0.1'", [['10.0.0.1']], { types: ['ipaddress'] }),
  c(
    'literal-v6-canonical',
    TYPES,
    "SELECT IPADDRESS '2001:0db8:0:0:0:ff00:0042:8329', IPADDRESS '2001:db8::1'",
    [['2001:db8::ff00:42:8329', '2001:db8::1']],
  ),
  c('cast-from-varchar', TYPES, "SELECT CAST('192.168.0.1' AS IPADDRESS)", [['192.168.0.1']], {
    types: ['ipaddress'],
  }),
  c('cast-to-varchar', TYPES, "SELECT CAST(IPADDRESS '::ffff:10.1.2.3' AS varchar)", [['10.1.2.3']], {
    note: 'an IPv4-mapped IPv6 address is the IPv4 address (IPv4 values are stored IPv4-mapped)',
  }),
  c('cast-invalid', TYPES, "SELECT CAST('10.0.0.300' AS IPADDRESS)", [], {
    error: 'INVALID_CAST_ARGUMENT: Cannot cast value to IPADDRESS: 10.0.0.300',
  }),
  c(
    'null-address',
    TYPES,
    "SELECT CAST(s AS IPADDRESS), CAST(CAST(s AS IPADDRESS) AS varchar), contains(n, CAST('10.0.0.1' AS IPADDRESS)) FROM (VALUES (CAST(NULL AS varchar), CAST(NULL AS varchar))) AS t(s, n)",
    [[null, null, null]],
    { note: 'NULL in, NULL out, as for every Trino function and cast' },
  ),
  c('try-cast-invalid', TYPES, "SELECT try_cast('not an address' AS IPADDRESS)", [[null]]),
  c(
    'order-by-address',
    TYPES,
    "SELECT a FROM (VALUES '2001:db8::1', '10.0.0.10', '10.0.0.9', '192.168.1.1') AS t(s) CROSS JOIN UNNEST(ARRAY[CAST(s AS IPADDRESS)]) AS u(a) ORDER BY a",
    [['10.0.0.9'], ['10.0.0.10'], ['192.168.1.1'], ['2001:db8::1']],
    { note: 'ordered as 16-byte values, not as text: 10.0.0.9 before 10.0.0.10' },
  ),
  c(
    'flow-log-filter',
    FUNCTIONS,
    "SELECT srcaddr FROM (VALUES '10.1.2.3', '192.168.0.1', '10.200.0.7') AS flows(srcaddr) WHERE contains('10.0.0.0/8', CAST(srcaddr AS IPADDRESS)) ORDER BY CAST(srcaddr AS IPADDRESS)",
    [['10.1.2.3'], ['10.200.0.7']],
  ),
  c(
    'group-by-address',
    TYPES,
    "SELECT CAST(s AS IPADDRESS) AS ip, count(*) FROM (VALUES '10.0.0.1', '10.0.0.1', '::ffff:10.0.0.1', '10.0.0.2') AS t(s) GROUP BY 1 ORDER BY 1",
    [
      ['10.0.0.1', '3'],
      ['10.0.0.2', '1'],
    ],
  ),
];
