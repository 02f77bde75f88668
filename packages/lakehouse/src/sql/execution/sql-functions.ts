// Scalar functions the translated SQL calls where DuckDB has no equivalent (Trino's IPADDRESS, luhn_check, title_case, the URL
// functions as java.net.URI reads a URL, from_base/to_base),
// registered once on each connection the engine runs statements on. A failure sets the function's error, which DuckDB raises as
// the statement's error (and TRY turns into NULL, as Trino's TRY does for a failed cast).
import {
  BIGINT,
  BLOB,
  BOOLEAN,
  DuckDBScalarFunction,
  VARCHAR,
  blobValue,
  type DuckDBBlobValue,
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import {
  FROM_BASE,
  IP_CONTAINS,
  IP_PARSE,
  IP_TEXT,
  LUHN_CHECK,
  TITLE_CASE,
  TO_BASE,
  URL_DECODE,
  URL_ENCODE,
  URL_PARAMETER,
  URL_PART,
} from '../translation/engine-functions';
import { cidrContains, formatIpAddress, ipCastError, parseIpAddress } from './ip-address';
import { fromBase, toBase } from './radix';
import { parseUrl, urlDecode, urlEncode, urlParameter, type UrlParts } from './url';

const registered = new WeakSet<DuckDBConnection>();

export function registerSqlFunctions(connection: DuckDBConnection): void {
  if (registered.has(connection)) return;
  registered.add(connection);
  // NULL in, NULL out for each (Trino: CAST(NULL AS IPADDRESS), contains(NULL, …) and luhn_check(NULL) are NULL).
  rowFunction(connection, IP_PARSE, [VARCHAR], BLOB, (text: string) => {
    const bytes = parseIpAddress(text);
    if (!bytes) throw new Error(ipCastError(text));
    return blobValue(bytes);
  });
  rowFunction(connection, IP_TEXT, [BLOB], VARCHAR, (value: DuckDBBlobValue) => formatIpAddress(value.bytes));
  rowFunction(
    connection,
    IP_CONTAINS,
    [VARCHAR, BLOB],
    BOOLEAN,
    (network: string, address: DuckDBBlobValue) => cidrContains(network, address.bytes),
  );
  registerTextFunctions(connection);
  rowFunction(connection, LUHN_CHECK, [VARCHAR], BOOLEAN, luhnCheck);
}

/**
 * A scalar function of one or two arguments computed row by row in JS: NULL in, NULL out; a thrown Error is the
 * statement's error (Trino's INVALID_FUNCTION_ARGUMENT text).
 */
function rowFunction(
  connection: DuckDBConnection,
  name: string,
  parameterTypes: DuckDBType[],
  returnType: DuckDBType,
  compute: (...values: never[]) => unknown,
): void {
  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name,
      returnType,
      parameterTypes,
      mainFunction: (info, input, output) => {
        const columns = parameterTypes.map((_, i) => input.getColumnVector(i));
        for (let row = 0; row < input.rowCount; row++) {
          const values = columns.map((c) => c.getItem(row));
          try {
            output.setItem(
              row,
              values.some((v) => v === null) ? null : (compute(...(values as never[])) as DuckDBValue),
            );
          } catch (error) {
            info.setError((error as Error).message);
            return;
          }
        }
        output.flush();
      },
    }),
  );
}

function registerTextFunctions(connection: DuckDBConnection): void {
  rowFunction(connection, URL_PART, [VARCHAR, VARCHAR], VARCHAR, (url: string, part: string) => {
    const parts = parseUrl(url);
    const value = parts?.[part as Exclude<keyof UrlParts, 'rawQuery'>];
    return value === undefined || value === null ? null : String(value);
  });
  rowFunction(connection, URL_PARAMETER, [VARCHAR, VARCHAR], VARCHAR, urlParameter);
  rowFunction(connection, URL_ENCODE, [VARCHAR], VARCHAR, urlEncode);
  rowFunction(connection, URL_DECODE, [VARCHAR], VARCHAR, urlDecode);
  rowFunction(connection, FROM_BASE, [VARCHAR, BIGINT], BIGINT, (text: string, radix: bigint) =>
    fromBase(text, Number(radix)),
  );
  rowFunction(connection, TITLE_CASE, [VARCHAR], VARCHAR, titleCase);
  rowFunction(connection, TO_BASE, [BIGINT, BIGINT], VARCHAR, (value: bigint, radix: bigint) =>
    toBase(value, Number(radix)),
  );
}

/** Trino's title_case: each word's first letter upper case, the rest lower case; words end at non-alphanumerics. */
export function titleCase(text: string): string {
  return text
    .toLowerCase()
    .replace(
      /(^|[^\p{L}\p{N}])(\p{L})/gu,
      (_m, before: string, letter: string) => before + letter.toUpperCase(),
    );
}

/** Trino's luhn_check: the Luhn (mod 10) checksum of a string of digits; false for anything else. */
export function luhnCheck(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
