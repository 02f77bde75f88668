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
  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: IP_PARSE,
      returnType: BLOB,
      parameterTypes: [VARCHAR],
      mainFunction: (info, input, output) => {
        const texts = input.getColumnVector(0);
        for (let row = 0; row < input.rowCount; row++) {
          const text = texts.getItem(row) as string;
          const bytes = parseIpAddress(text);
          if (!bytes) {
            info.setError(ipCastError(text));
            return;
          }
          output.setItem(row, blobValue(bytes));
        }
        output.flush();
      },
    }),
  );
  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: IP_TEXT,
      returnType: VARCHAR,
      parameterTypes: [BLOB],
      mainFunction: (_info, input, output) => {
        const values = input.getColumnVector(0);
        for (let row = 0; row < input.rowCount; row++)
          output.setItem(row, formatIpAddress((values.getItem(row) as DuckDBBlobValue).bytes));
        output.flush();
      },
    }),
  );
  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: IP_CONTAINS,
      returnType: BOOLEAN,
      parameterTypes: [VARCHAR, BLOB],
      mainFunction: (info, input, output) => {
        const networks = input.getColumnVector(0);
        const addresses = input.getColumnVector(1);
        for (let row = 0; row < input.rowCount; row++) {
          try {
            const address = (addresses.getItem(row) as DuckDBBlobValue).bytes;
            output.setItem(row, cidrContains(networks.getItem(row) as string, address));
          } catch (error) {
            info.setError((error as Error).message);
            return;
          }
        }
        output.flush();
      },
    }),
  );
  registerTextFunctions(connection);
  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: LUHN_CHECK,
      returnType: BOOLEAN,
      parameterTypes: [VARCHAR],
      mainFunction: (_info, input, output) => {
        const values = input.getColumnVector(0);
        for (let row = 0; row < input.rowCount; row++)
          output.setItem(row, luhnCheck(values.getItem(row) as string));
        output.flush();
      },
    }),
  );
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
