// Hive column types (what Glue records for a Hive table: `string`, `int`, `array<string>`, `struct<a:int>`...) and
// Trino's types, both ways, as Athena's Hive connector reads and writes them (trinodb/trino HiveTypeTranslator;
// https://docs.aws.amazon.com/athena/latest/ug/data-types.html: a Hive `timestamp` is millisecond precision, so
// it reads as timestamp(3)).
import { RefusedByAthenaError } from '../errors';
import { typeName, VARCHAR, type SqlType } from './types';

const PRIMITIVES: Record<string, SqlType> = {
  boolean: { k: 'boolean' },
  tinyint: { k: 'tinyint' },
  smallint: { k: 'smallint' },
  int: { k: 'integer' },
  integer: { k: 'integer' },
  bigint: { k: 'bigint' },
  float: { k: 'real' },
  double: { k: 'double' },
  string: VARCHAR,
  binary: { k: 'varbinary' },
  date: { k: 'date' },
  timestamp: { k: 'timestamp', precision: 3 },
};

/** Reads a Hive type name; a name it does not know reads as varchar (Glue accepts any text as a type). */
export function sqlTypeOfHive(text: string): SqlType {
  const reader = new HiveTypeReader(text.toLowerCase().replace(/\s+/g, ''));
  try {
    const type = reader.type();
    return reader.done() ? type : VARCHAR;
  } catch {
    return VARCHAR;
  }
}

class HiveTypeReader {
  private at = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.at === this.text.length;
  }

  private word(): string {
    const m = /^[a-z_][a-z0-9_]*/.exec(this.text.slice(this.at));
    if (!m) throw new Error(`type expected at ${this.at}`);
    this.at += m[0].length;
    return m[0];
  }

  private accept(c: string): boolean {
    if (this.text[this.at] !== c) return false;
    this.at++;
    return true;
  }

  private expect(c: string): void {
    if (!this.accept(c)) throw new Error(`'${c}' expected at ${this.at}`);
  }

  private numbers(): number[] {
    const m = /^\((\d+)(?:,(\d+))?\)/.exec(this.text.slice(this.at));
    if (!m) return [];
    this.at += m[0].length;
    return [Number(m[1]), ...(m[2] === undefined ? [] : [Number(m[2])])];
  }

  type(): SqlType {
    const name = this.word();
    switch (name) {
      case 'array': {
        this.expect('<');
        const element = this.type();
        this.expect('>');
        return { k: 'array', element };
      }
      case 'map': {
        this.expect('<');
        const key = this.type();
        this.expect(',');
        const value = this.type();
        this.expect('>');
        return { k: 'map', key, value };
      }
      case 'struct': {
        this.expect('<');
        const fields: { name?: string; type: SqlType }[] = [];
        do {
          const field = this.word();
          this.expect(':');
          fields.push({ name: field, type: this.type() });
        } while (this.accept(','));
        this.expect('>');
        return { k: 'row', fields };
      }
      case 'decimal': {
        const [precision = 10, scale = 0] = this.numbers();
        return { k: 'decimal', precision, scale };
      }
      case 'varchar': {
        const [length] = this.numbers();
        return length === undefined ? VARCHAR : { k: 'varchar', length };
      }
      case 'char':
        return { k: 'char', length: this.numbers()[0] ?? 1 };
      default: {
        const primitive = PRIMITIVES[name];
        if (!primitive) throw new Error(`unknown type ${name}`);
        return primitive;
      }
    }
  }
}

/**
 * The Hive type a CTAS column of Trino type `t` is written as; Athena refuses a type the Hive connector cannot
 * store (`NOT_SUPPORTED: Unsupported Hive type: ipaddress`, HiveTypeTranslator.toHiveType).
 */
export function hiveTypeOf(t: SqlType): string {
  switch (t.k) {
    case 'boolean':
    case 'tinyint':
    case 'smallint':
    case 'bigint':
    case 'double':
    case 'date':
      return t.k;
    case 'integer':
      return 'int';
    case 'real':
      return 'float';
    case 'varbinary':
      return 'binary';
    case 'varchar':
      return t.length === undefined ? 'string' : `varchar(${t.length})`;
    case 'char':
      return `char(${t.length})`;
    case 'decimal':
      return `decimal(${t.precision},${t.scale})`;
    case 'timestamp':
      if (t.zone === undefined) return 'timestamp';
      break;
    case 'array':
      return `array<${hiveTypeOf(t.element)}>`;
    case 'map':
      return `map<${hiveTypeOf(t.key)},${hiveTypeOf(t.value)}>`;
    case 'row':
      if (t.fields.some((f) => f.name === undefined))
        throw new RefusedByAthenaError(
          `Anonymous row type is not supported in Hive. Please give each field a name: ${typeName(t)}`,
        );
      return `struct<${t.fields.map((f) => `${f.name}:${hiveTypeOf(f.type)}`).join(',')}>`;
  }
  throw new RefusedByAthenaError(`Unsupported Hive type: ${typeName(t)}`, undefined, typeName(t));
}
