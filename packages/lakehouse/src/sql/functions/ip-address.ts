// Trino's IPADDRESS (https://trino.io/docs/current/functions/ipaddress.html) in the translated SQL: a value is a
// struct whose one field holds Trino's 16-byte form (a struct rather than a bare BLOB so a result column can be told
// apart from varbinary and printed as an address). Parsing, printing and CIDR tests are ip-codec.ts's, run by the
// engine's own scalar functions below; contains(cidr, ip) is array-map.ts's entry, which calls cidrContainsSql.
import { sqlIdent as ident } from '../../duckdb/duckdb-session';
import { udfName, type EngineUdf } from './function';
import { cidrContains, formatIpAddress, ipCastError, parseIpAddress } from './ip-codec';

export const IPADDRESS_FIELD = '$ipaddress';
export const IPADDRESS_DUCKDB_TYPE = `STRUCT(${ident(IPADDRESS_FIELD)} BLOB)`;

/** Trino's CAST(varchar AS IPADDRESS)'s bytes, failing with its message on a bad address. */
const IP_PARSE: EngineUdf = {
  name: udfName('ip_parse'),
  params: ['VARCHAR'],
  result: 'BLOB',
  compute: (text: string) => {
    const bytes = parseIpAddress(text);
    if (!bytes) throw new Error(ipCastError(text));
    return bytes;
  },
};
const IP_TEXT: EngineUdf = {
  name: udfName('ip_text'),
  params: ['BLOB'],
  result: 'VARCHAR',
  compute: formatIpAddress,
};
const IP_CONTAINS: EngineUdf = {
  name: udfName('ip_contains'),
  params: ['VARCHAR', 'BLOB'],
  result: 'BOOLEAN',
  compute: cidrContains,
};

export const IP_ADDRESS_UDFS: readonly EngineUdf[] = [IP_PARSE, IP_TEXT, IP_CONTAINS];

/** An IPADDRESS from text (Trino's CAST(varchar AS IPADDRESS)). */
export const ipFromText = (text: string): string =>
  `struct_pack(${ident(IPADDRESS_FIELD)} := ${IP_PARSE.name}(${text}))`;

/** The 16 bytes inside an IPADDRESS value. */
export const ipBytes = (ip: string): string => `struct_extract(${ip}, ${`'${IPADDRESS_FIELD}'`})`;

/** CAST(ip AS varchar). */
export const ipToText = (ip: string): string => `${IP_TEXT.name}(${ipBytes(ip)})`;

/** contains(cidr, ip). */
export const cidrContainsSql = (cidr: string, ip: string): string =>
  `${IP_CONTAINS.name}(${cidr}, ${ipBytes(ip)})`;
