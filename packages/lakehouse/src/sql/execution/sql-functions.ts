// The engine's own scalar functions, registered once on each connection the engine runs statements on: every one the
// function table declares (functions/catalog.ts: luhn_check, title_case, from_base/to_base, the URL functions, the
// IPADDRESS casts and contains), where DuckDB has no equivalent. A failure sets the function's error, which DuckDB
// raises as the statement's error (and TRY turns into NULL, as Trino's TRY does for a failed cast).
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
import { ENGINE_UDFS } from '../functions/catalog';
import type { EngineUdf, UdfType } from '../functions/function';

const registered = new WeakSet<DuckDBConnection>();

const DUCKDB_TYPES: Record<UdfType, DuckDBType> = { VARCHAR, BIGINT, BOOLEAN, BLOB };

export function registerSqlFunctions(connection: DuckDBConnection): void {
  if (registered.has(connection)) return;
  registered.add(connection);
  for (const udf of ENGINE_UDFS) register(connection, udf);
}

/**
 * A scalar function computed row by row in JS: NULL in, NULL out (Trino: CAST(NULL AS IPADDRESS), contains(NULL, …)
 * and luhn_check(NULL) are NULL); a thrown Error is the statement's error (Trino's INVALID_FUNCTION_ARGUMENT text).
 * BLOBs reach `compute` as their bytes and leave it as bytes.
 */
function register(connection: DuckDBConnection, udf: EngineUdf): void {
  // One conversion per argument, NULL kept as NULL (BLOBs reach `compute` as their bytes).
  const fromDuckdb = udf.params.map((type) =>
    type === 'BLOB'
      ? (v: DuckDBValue) => (v === null ? null : (v as DuckDBBlobValue).bytes)
      : (v: DuckDBValue) => v,
  );
  const toDuckdb =
    udf.result === 'BLOB'
      ? (v: unknown) => (v === null ? null : blobValue(v as Uint8Array))
      : (v: unknown) => v as DuckDBValue;
  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: udf.name,
      returnType: DUCKDB_TYPES[udf.result],
      parameterTypes: udf.params.map((type) => DUCKDB_TYPES[type]),
      mainFunction: (info, input, output) => {
        const columns = udf.params.map((_, i) => input.getColumnVector(i));
        for (let row = 0; row < input.rowCount; row++) {
          const values = columns.map((c, i) => fromDuckdb[i]!(c.getItem(row)));
          try {
            output.setItem(
              row,
              values.some((v) => v === null) ? null : toDuckdb(udf.compute(...(values as never[]))),
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
