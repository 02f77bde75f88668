// One Trino function as the local engine knows it, in one entry: its result type (the analyzer asks), its DuckDB
// SQL (the translation asks) and, where DuckDB has no equivalent, the scalar function the engine registers on each
// connection (execution registers it). The entries live in one file per family of Trino's function list
// (https://trino.io/docs/current/functions/list.html); catalog.ts gathers them.
import type { SqlType } from '../analyzer/types';
import type { Expr } from '../tree/ast';

export type Call = Extract<Expr, { k: 'func' }>;

/** What a translator is given besides the call and its arguments already written as DuckDB SQL. */
export interface CallContext {
  /** The analyzer's types of the call's arguments (undefined where it could not tell). */
  argTypes: (SqlType | undefined)[];
  /** Inside TRY(...): a check that would raise an error yields NULL instead (DuckDB's TRY refuses error()). */
  inTry: boolean;
}

export type Translator = (args: string[], node: Call, ctx: CallContext) => string;

/** Trino's result type from the arguments' types (undefined where they do not tell it: DuckDB's typing applies). */
export type TypeRule = (args: readonly (SqlType | undefined)[], call: Call) => SqlType | undefined;

/** The value types a registered scalar function takes and gives (a BLOB is a Uint8Array to `compute`). */
export type UdfType = 'VARCHAR' | 'BIGINT' | 'BOOLEAN' | 'BLOB';

/**
 * A scalar function computed in JS row by row: NULL in, NULL out; a thrown Error is the statement's error (Trino's
 * INVALID_FUNCTION_ARGUMENT text), and TRY turns it into NULL, as Trino's TRY does.
 */
export interface Udf {
  readonly params: readonly UdfType[];
  readonly result: UdfType;
  readonly compute: (...values: never[]) => unknown;
}

/** A scalar function the engine registers under its own name, shared by several entries or casts. */
export interface EngineUdf extends Udf {
  readonly name: string;
}

export interface TrinoFunction {
  /** The result type: fixed, or a rule over the arguments' types. None: DuckDB's typing applies. */
  readonly returns?: SqlType | TypeRule;
  /** DuckDB SQL for a call: a translator, or DuckDB's name for the same function. None: the same name (or the udf). */
  readonly sql?: Translator | string;
  /** The scalar function DuckDB lacks, registered as `udfName(name)`; a call without `sql` calls it. */
  readonly udf?: Udf;
  /** The DuckDB function a call with ORDER BY or IGNORE NULLS names, where `sql` is a translator. */
  readonly withOrderBy?: string;
  /** Trino has it; the local engine cannot run it: NOT_SUPPORTED, naming it. */
  readonly unsupported?: true;
}

/** A family's entries by Trino's (lower-case) name. */
export type FunctionFamily = Readonly<Record<string, TrinoFunction>>;

/** Entries that need nothing but their name (DuckDB's function of the same name, or NOT_SUPPORTED). */
export const plain = (names: readonly string[]): FunctionFamily =>
  Object.fromEntries(names.map((name) => [name, {}]));

/** The name an entry's udf is registered under. */
export const udfName = (name: string): string => `__loglake_${name}`;

/** The type of the first argument (min, abs, lag, array_sort, …). */
export const sameAsFirst: TypeRule = ([a0]) => a0;

/** min/max(x) and min_by/max_by(x, y): x's type; with a count (n smallest/largest), an array of it. */
export const minMaxType: TypeRule = ([a0], call) =>
  call.args.length === (call.name.endsWith('_by') ? 3 : 2) ? a0 && { k: 'array', element: a0 } : a0;

/** error(message) where Trino raises an error, NULL inside TRY. */
export function raise(ctx: { inTry: boolean }, message: string): string {
  return ctx.inTry ? 'NULL' : `error(${message})`;
}

/** The value of a call's argument when it is a string literal. */
export function literalArg(node: Call, index: number): string | undefined {
  const arg = node.args[index];
  return arg?.k === 'string' ? arg.value : undefined;
}
