// The engine's own scalar functions, as the translated SQL calls them: where DuckDB has no equivalent of a Trino
// function or type, the execution layer registers one on the connection (execution/sql-functions.ts).
// IPADDRESS values are a struct whose one field holds Trino's 16-byte form (a struct rather than a bare BLOB so a
// result column can be told apart from varbinary and printed as an address); parsing, printing and CIDR tests are
// implemented once, in execution/ip-address.ts.
import { sqlIdent as ident } from '../../duckdb/duckdb-session';

export const IPADDRESS_FIELD = '$ipaddress';
export const IPADDRESS_DUCKDB_TYPE = `STRUCT(${ident(IPADDRESS_FIELD)} BLOB)`;

/** Names of the engine's scalar functions (registered once per connection). */
export const IP_PARSE = '__loglake_ip_parse';
export const IP_TEXT = '__loglake_ip_text';
export const IP_CONTAINS = '__loglake_ip_contains';
export const LUHN_CHECK = '__loglake_luhn_check';
/** url_extract_<part>(url): a part of the URL as java.net.URI reads it (NULL where it cannot). */
export const URL_PART = '__loglake_url_part';
export const URL_PARAMETER = '__loglake_url_parameter';
export const URL_ENCODE = '__loglake_url_encode';
export const URL_DECODE = '__loglake_url_decode';
export const FROM_BASE = '__loglake_from_base';
export const TITLE_CASE = '__loglake_title_case';
export const TO_BASE = '__loglake_to_base';

/** An IPADDRESS from text (Trino's CAST(varchar AS IPADDRESS), failing with its message on a bad address). */
export const ipFromText = (text: string): string =>
  `struct_pack(${ident(IPADDRESS_FIELD)} := ${IP_PARSE}(${text}))`;

/** The 16 bytes inside an IPADDRESS value. */
export const ipBytes = (ip: string): string => `struct_extract(${ip}, ${`'${IPADDRESS_FIELD}'`})`;

/** CAST(ip AS varchar). */
export const ipToText = (ip: string): string => `${IP_TEXT}(${ipBytes(ip)})`;

/** contains(cidr, ip). */
export const cidrContainsSql = (cidr: string, ip: string): string =>
  `${IP_CONTAINS}(${cidr}, ${ipBytes(ip)})`;
