// A call of a Trino function in DuckDB SQL, as its entry in the function table says (functions/catalog.ts): its own
// translator, DuckDB's name for it, or the engine's scalar function; otherwise the same name (most aggregate, math
// and string functions are the same), and one DuckDB does not know then fails as NOT_SUPPORTED naming it
// (execution/duckdb-errors.ts). A name Trino does not have fails before anything runs, as Trino's FUNCTION_NOT_FOUND.
import { GenericUserError, NotSupportedError } from '../errors';
import { TRINO_FUNCTIONS } from '../functions/catalog';
import { typeName } from '../analyzer/types';
import {
  udfName,
  type Call,
  type CallContext,
  type TrinoFunction,
  type Udf,
  type UdfType,
} from '../functions/function';

export { raise, type CallContext } from '../functions/function';

/**
 * The entry of a called name: a name Trino does not have is Trino's FUNCTION_NOT_FOUND (DuckDB's own functions are
 * not Athena's); a Trino function the local engine cannot run is NOT_SUPPORTED, naming it.
 */
function entryOf(node: Call): TrinoFunction {
  const entry = TRINO_FUNCTIONS.get(node.name);
  if (entry === undefined)
    throw new GenericUserError('FUNCTION_NOT_FOUND', `Function '${node.name}' not registered`, {
      position: node.pos,
      value: node.name,
    });
  if (entry.unsupported) throw new NotSupportedError(`Function ${node.name}`, node.pos);
  return entry;
}

const TRINO_TYPE: Record<UdfType, string> = {
  VARCHAR: 'varchar',
  BIGINT: 'bigint',
  BOOLEAN: 'boolean',
  BLOB: 'varbinary',
};

/**
 * The arguments of a call the engine's own scalar function computes: as many as its entry declares, else Trino's
 * FUNCTION_NOT_FOUND naming the function as the caller wrote it (DuckDB's refusal would name the registered one).
 */
function udfArguments(node: Call, udf: Udf, args: string[], ctx: CallContext): string[] {
  if (args.length === udf.params.length) return args;
  const given = ctx.argTypes.map((t) => (t ? typeName(t) : 'unknown')).join(', ');
  const expected = `${node.name}(${udf.params.map((p) => TRINO_TYPE[p]).join(', ')})`;
  throw new GenericUserError(
    'FUNCTION_NOT_FOUND',
    `Unexpected parameters (${given}) for function ${node.name}. Expected: ${expected}`,
    { position: node.pos, value: node.name },
  );
}

/** DuckDB SQL for a call of Trino function `name` (arguments already translated). */
export function translateFunctionCall(node: Call, args: string[], ctx: CallContext): string {
  const entry = entryOf(node);
  if (typeof entry.sql === 'function') return entry.sql(args, node, ctx);
  if (entry.udf) return `${udfName(node.name)}(${udfArguments(node, entry.udf, args, ctx).join(', ')})`;
  const distinct = node.distinct ? 'DISTINCT ' : '';
  return `${entry.sql ?? node.name}(${distinct}${args.join(', ')})`;
}

/** The DuckDB name of a Trino function called with plain arguments (for calls with ORDER BY / IGNORE NULLS). */
export function duckdbFunctionName(node: Call): string {
  const entry = entryOf(node);
  if (typeof entry.sql === 'function' || entry.udf) {
    if (entry.withOrderBy !== undefined) return entry.withOrderBy;
    throw new NotSupportedError(`Function ${node.name} with ORDER BY or IGNORE NULLS`, node.pos);
  }
  return entry.sql ?? node.name;
}
