// DuckDB's errors (and the engine's own) as Athena reports them: error names and Trino's texts, positioned at the
// construct they name. DuckDB reports errors as text only, so this boundary is the one place that reads error
// messages.
import {
  CommitConflictError,
  CorruptTableError,
  InvalidNameError,
  InvalidPropertyError,
  InvalidSchemaError,
  InvalidTransformError,
  NoSuchRefError,
  NoSuchSnapshotError,
  SchemaMismatchError,
} from '../../errors';
import { MetadataTableError } from '../../metadata-tables';
import type { PositionIndex } from '../analyzer/positions';
import {
  ColumnNotFoundError,
  GenericUserError,
  InternalEngineError,
  NotSupportedError,
  SqlError,
} from '../errors';
import { INTEGER_CAST_FAILURE } from '../translation/integer-casts';

type EngineErrorClass = abstract new (...args: never[]) => Error;

/** The engine's own failures (errors.ts of the table layer), by class, as Athena names them. */
const ENGINE_ERRORS: [EngineErrorClass, { errorName: string; category: 1 | 2; type: number }][] = [
  [CommitConflictError, { errorName: 'ICEBERG_COMMIT_ERROR', category: 1, type: 233 }],
  [SchemaMismatchError, { errorName: 'TYPE_MISMATCH', category: 2, type: 1000 }],
  [InvalidSchemaError, { errorName: 'INVALID_TABLE_PROPERTY', category: 2, type: 1000 }],
  [InvalidTransformError, { errorName: 'INVALID_TABLE_PROPERTY', category: 2, type: 1000 }],
  [InvalidNameError, { errorName: 'INVALID_TABLE_PROPERTY', category: 2, type: 1000 }],
  [InvalidPropertyError, { errorName: 'INVALID_TABLE_PROPERTY', category: 2, type: 1000 }],
  [NoSuchSnapshotError, { errorName: 'INVALID_ARGUMENTS', category: 2, type: 1000 }],
  [NoSuchRefError, { errorName: 'INVALID_ARGUMENTS', category: 2, type: 1000 }],
  [MetadataTableError, { errorName: 'INVALID_ARGUMENTS', category: 2, type: 1000 }],
  [CorruptTableError, { errorName: 'ICEBERG_INVALID_METADATA', category: 1, type: 233 }],
];

export function mapDuckdbError(error: unknown, positions?: PositionIndex): SqlError {
  if (error instanceof SqlError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const engineError = ENGINE_ERRORS.find(([type]) => error instanceof type)?.[1];
  if (engineError)
    return new GenericUserError(engineError.errorName, message, {
      cause: error,
      errorCategory: engineError.category,
      errorType: engineError.type,
    });
  let m =
    /Referenced column "([^"]+)" not found/.exec(message) ??
    /Column "([^"]+)" referenced that exists in the SELECT clause/.exec(message) ??
    /column "([^"]+)" (?:not found|does not exist)/i.exec(message);
  if (m) {
    const column = m[1] as string;
    return new ColumnNotFoundError(column, positions?.column(column), error);
  }
  m = /Table "([^"]+)" does not have a column named "([^"]+)"/.exec(message);
  if (m) return new ColumnNotFoundError(m[2] as string, positions?.column(m[2] as string), error);
  m = /Referenced table "([^"]+)" not found/.exec(message);
  if (m) {
    const ref = positions?.qualified(m[1] as string);
    return new ColumnNotFoundError(ref?.name ?? (m[1] as string), ref?.pos, error);
  }
  m = /(?:Scalar|Aggregate|Table|Window) Function with name "?([A-Za-z0-9_]+)"? does not exist/i.exec(
    message,
  );
  if (m) {
    // A Trino function (only those get here: translation refuses other names) DuckDB has no counterpart of.
    const name = m[1] as string;
    return new NotSupportedError(`Function ${name}`, positions?.func(name));
  }
  m = /Ambiguous reference to column name "([^"]+)"/.exec(message);
  if (m)
    return new GenericUserError('AMBIGUOUS_NAME', `Column '${m[1]}' is ambiguous`, {
      position: positions?.column(m[1] as string),
      value: m[1],
      cause: error,
    });
  m = /column "([^"]+)" must appear in the GROUP BY clause/.exec(message);
  if (m) {
    return new GenericUserError(
      'EXPRESSION_NOT_AGGREGATE',
      `'${m[1]}' must be an aggregate expression or appear in GROUP BY clause`,
      {
        position: positions?.column(m[1] as string),
        value: m[1],
        cause: error,
      },
    );
  }
  // DuckDB names its error class first (`Conversion Error: ...`); some runtimes prefix the message with `Error: `.
  const line = (message.split('\n')[0] ?? message).replace(/^Error: /, '');
  const kind = /^([A-Za-z ]+) Error: /.exec(line)?.[1] ?? '';
  const firstLine = line.replace(/^[A-Za-z ]+ Error: /, '');
  if (/Division by zero/.test(firstLine))
    return new GenericUserError('DIVISION_BY_ZERO', 'Division by zero', { cause: error });
  const cast = castFailure(firstLine);
  if (cast) return new GenericUserError(cast.errorName, cast.text, { cause: error, value: cast.value });
  if (kind === 'Conversion')
    return new GenericUserError('INVALID_CAST_ARGUMENT', firstLine, { cause: error });
  const raised = RAISED.find((pattern) => pattern.test(firstLine));
  if (raised) return new GenericUserError(errorNameOf(firstLine), firstLine, { cause: error });
  const overflow = integerOverflow(firstLine);
  if (overflow) return new GenericUserError('NUMERIC_VALUE_OUT_OF_RANGE', overflow, { cause: error });
  const unexpected = unexpectedParameters(firstLine, positions);
  if (unexpected) return unexpected;
  if (/No function matches|Cannot compare|Cannot mix|cannot be cast|Could not convert/i.test(message)) {
    return new GenericUserError('TYPE_MISMATCH', firstLine, { cause: error });
  }
  if (kind === 'Binder' || kind === 'Catalog')
    return new GenericUserError('GENERIC_USER_ERROR', firstLine, { cause: error });
  if (kind === 'Invalid Input' || kind === 'Out of Range')
    return new GenericUserError('INVALID_FUNCTION_ARGUMENT', firstLine, { cause: error });
  return new InternalEngineError(`The local engine failed to run the statement: ${firstLine}`, error);
}

/** DuckDB's names of the integer and floating types in its cast errors → Trino's, as its cast messages spell them. */
const CAST_TARGETS: Record<string, string> = {
  INT64: 'BIGINT',
  INT32: 'INT',
  INT16: 'SMALLINT',
  INT8: 'TINYINT',
  DOUBLE: 'DOUBLE',
  FLOAT: 'REAL',
  BOOL: 'BOOLEAN',
};
const RANGE_TARGETS: Record<string, string> = {
  INT64: 'bigint',
  INT32: 'integer',
  INT16: 'smallint',
  INT8: 'tinyint',
};

/** A failed cast in Trino's words (VarcharOperators, DateOperators, the integer casts). */
function castFailure(text: string): { errorName: string; text: string; value: string } | undefined {
  let m = /^Could not convert string '(.*)' to (\w+)(?: when casting from source column \w+)?$/.exec(text);
  if (m && CAST_TARGETS[m[2] as string])
    return {
      errorName: 'INVALID_CAST_ARGUMENT',
      text: `Cannot cast '${m[1]}' to ${CAST_TARGETS[m[2] as string]}`,
      value: m[1] as string,
    };
  m =
    /^invalid (date|timestamp) field format: "(.*)", expected format/.exec(text) ??
    /^(date|timestamp) field value out of range: "(.*)"/.exec(text);
  if (m)
    return {
      errorName: 'INVALID_CAST_ARGUMENT',
      text: `Value cannot be cast to ${m[1]}: ${m[2]}`,
      value: m[2] as string,
    };
  m =
    /^Type \w+ with value (.+) can't be cast because the value is out of range for the destination type (\w+)$/.exec(
      text,
    );
  if (m && RANGE_TARGETS[m[2] as string])
    return {
      errorName: 'NUMERIC_VALUE_OUT_OF_RANGE',
      text: `Out of range for ${RANGE_TARGETS[m[2] as string]}: ${m[1]}`,
      value: m[1] as string,
    };
  return undefined;
}

const OVERFLOW_OPERATORS: Record<string, string> = { addition: '+', subtraction: '-', multiplication: '*' };

/** DuckDB's integer overflow in Trino's words (IntegerOperators: `integer addition overflow: 2147483647 + 1`). */
function integerOverflow(text: string): string | undefined {
  const m =
    /^Overflow in (addition|subtraction|multiplication) of (INT8|INT16|INT32|INT64) \((.+) [-+*] (.+)\)!?$/.exec(
      text,
    );
  if (!m) return undefined;
  const [, operation, type, left, right] = m as unknown as [string, string, string, string, string];
  return `${RANGE_TARGETS[type]} ${operation} overflow: ${left} ${OVERFLOW_OPERATORS[operation]} ${right}`;
}

/** DuckDB's type names in its binder messages → Trino's. */
function trinoTypeName(duckdb: string): string {
  const list = /^(.+)\[\]$/.exec(duckdb);
  if (list) return `array(${trinoTypeName(list[1] as string)})`;
  const names: Record<string, string> = {
    INTEGER_LITERAL: 'integer',
    STRING_LITERAL: 'varchar',
    VARCHAR: 'varchar',
    INTEGER: 'integer',
    BIGINT: 'bigint',
    SMALLINT: 'smallint',
    TINYINT: 'tinyint',
    DOUBLE: 'double',
    FLOAT: 'real',
    BOOLEAN: 'boolean',
    DATE: 'date',
    BLOB: 'varbinary',
    INTERVAL: 'interval day to second',
    '"NULL"': 'unknown',
    NULL: 'unknown',
  };
  return names[duckdb] ?? duckdb.toLowerCase();
}

/**
 * DuckDB found no overload for the argument types: Trino's FUNCTION_NOT_FOUND `Unexpected parameters (...) for
 * function f` (without the list of signatures Trino adds, which the local engine does not know).
 */
function unexpectedParameters(text: string, positions?: PositionIndex): SqlError | undefined {
  const m = /^No function matches the given name and argument types '([a-z_0-9]+)\((.*)\)'/.exec(text);
  if (!m) return undefined;
  const [, name, args] = m as unknown as [string, string, string];
  const types = args ? args.split(/, (?![^(]*\))/).map(trinoTypeName) : [];
  return new GenericUserError(
    'FUNCTION_NOT_FOUND',
    `Unexpected parameters (${types.join(', ')}) for function ${name}`,
    { position: positions?.func(name), value: name },
  );
}

/** Texts the translated SQL itself raises (error(...) and the engine's scalar functions), in Trino's words. */
const RAISED = [
  /^Cannot cast value to IPADDRESS: /,
  /^Cannot cast '.*' to VARCHAR$/s,
  /^bucketCount must be greater than 0$/,
  /^duration is not a valid data duration string: /,
  /^bounds cannot equal each other$/,
  /^Bits specified in bit_count must be between 2 and 64, got /,
  INTEGER_CAST_FAILURE,
  /^Invalid CIDR: /,
  /^Key not present in map: /,
  /^Array subscript /,
  /^SQL array indices start at 1$/,
  /^Index must be greater than zero$/,
];

function errorNameOf(text: string): string {
  return /^Cannot cast/.test(text) ? 'INVALID_CAST_ARGUMENT' : 'INVALID_FUNCTION_ARGUMENT';
}
