// What a function translator is given: the call as parsed, its arguments already written as DuckDB SQL, and the
// analyzer's types of those arguments. Shared by the translators of each family of functions.
import type { SqlType } from '../analyzer/types';
import type { Expr } from '../tree/ast';

export type Call = Extract<Expr, { k: 'func' }>;

export interface CallContext {
  /** The analyzer's types of the call's arguments (undefined where it could not tell). */
  argTypes: (SqlType | undefined)[];
  /** Inside TRY(...): a check that would raise an error yields NULL instead (DuckDB's TRY refuses error()). */
  inTry: boolean;
}

export type Translator = (args: string[], node: Call, ctx: CallContext) => string;

/** error(message) where Trino raises an error, NULL inside TRY. */
export function raise(ctx: { inTry: boolean }, message: string): string {
  return ctx.inTry ? 'NULL' : `error(${message})`;
}

/** The value of a call's argument when it is a string literal. */
export function literalArg(node: Call, index: number): string | undefined {
  const arg = node.args[index];
  return arg?.k === 'string' ? arg.value : undefined;
}
