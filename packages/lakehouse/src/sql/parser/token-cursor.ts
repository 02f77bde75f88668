// A cursor over the token stream with Trino-style error messages ("mismatched input 'x'. Expecting: ...").
import type { Identifier } from '../tree/ast';
import { SqlSyntaxError, type SourcePosition } from '../errors';
import type { Token } from './tokenizer';

/** Words that end a clause, so they can never be read as an implicit alias. Trino's non-reserved words that
 * only open a clause in one statement (COMMENT, LOCATION, FILTER, OVER...) are read as names everywhere else. */
export const RESERVED = new Set([
  'select',
  'from',
  'where',
  'group',
  'having',
  'order',
  'limit',
  'offset',
  'fetch',
  'union',
  'except',
  'intersect',
  'join',
  'inner',
  'left',
  'right',
  'full',
  'cross',
  'natural',
  'on',
  'using',
  'as',
  'window',
  'with',
  'when',
  'then',
  'else',
  'end',
  'and',
  'or',
  'not',
  'in',
  'is',
  'like',
  'between',
  'case',
  'for',
  'values',
  'lateral',
  'unnest',
  'set',
  'into',
  'table',
  'escape',
  'distinct',
  'all',
  'by',
  'create',
  'drop',
  'alter',
  'insert',
  'delete',
  'update',
  'merge',
  'exists',
  'null',
  'true',
  'false',
  'cast',
  'uescape',
]);

/** Trino's reserved words: never a column or function name unless quoted. */
export const EXPRESSION_RESERVED = new Set([
  'alter',
  'and',
  'as',
  'between',
  'by',
  'case',
  'cast',
  'constraint',
  'create',
  'cross',
  'cube',
  'deallocate',
  'delete',
  'describe',
  'distinct',
  'drop',
  'else',
  'end',
  'escape',
  'except',
  'execute',
  'exists',
  'extract',
  'false',
  'for',
  'from',
  'full',
  'group',
  'grouping',
  'having',
  'in',
  'inner',
  'insert',
  'intersect',
  'into',
  'is',
  'join',
  'left',
  'like',
  'natural',
  'normalize',
  'not',
  'null',
  'on',
  'or',
  'order',
  'outer',
  'prepare',
  'recursive',
  'right',
  'rollup',
  'select',
  'table',
  'then',
  'true',
  'uescape',
  'union',
  'unnest',
  'using',
  'values',
  'when',
  'where',
  'with',
]);

export class TokenCursor {
  protected index = 0;
  constructor(
    protected readonly tokens: Token[],
    protected readonly sql: string,
  ) {}

  protected peek(ahead = 0): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)] as Token;
  }

  protected next(): Token {
    const token = this.peek();
    if (token.kind !== 'eof') this.index++;
    return token;
  }

  protected get pos(): SourcePosition {
    return this.peek().pos;
  }

  /** Is the current token the given keyword (an unquoted word) or operator? */
  protected is(word: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    if (token.kind === 'ident') return token.value === word;
    if (token.kind === 'op') return token.value === word;
    return false;
  }

  protected isSeq(...words: string[]): boolean {
    return words.every((word, i) => this.is(word, i));
  }

  protected accept(word: string): boolean {
    if (this.is(word)) {
      this.next();
      return true;
    }
    return false;
  }

  protected acceptSeq(...words: string[]): boolean {
    if (this.isSeq(...words)) {
      for (const _ of words) this.next();
      return true;
    }
    return false;
  }

  protected expect(word: string, expecting?: string): Token {
    if (!this.is(word)) this.fail(expecting ?? `'${word.toUpperCase()}'`);
    return this.next();
  }

  /** Throws Trino's parser message at the current token. */
  protected fail(expecting: string, at: Token = this.peek()): never {
    const input = at.kind === 'eof' ? '<EOF>' : at.raw;
    throw new SqlSyntaxError(`mismatched input '${input}'. Expecting: ${expecting}`, at.pos, input);
  }

  protected isIdentifier(ahead = 0, allowReserved = false): boolean {
    const token = this.peek(ahead);
    if (token.kind === 'quoted') return true;
    return token.kind === 'ident' && (allowReserved || !RESERVED.has(token.value));
  }

  protected identifier(allowReserved = false): Identifier {
    if (!this.isIdentifier(0, allowReserved)) this.fail('<identifier>');
    const token = this.next();
    return { name: token.value.toLowerCase(), quoted: token.kind === 'quoted', pos: token.pos };
  }

  /** `a, b, ...`: one or more identifiers separated by commas. */
  protected identifierList(allowReserved = false): Identifier[] {
    const list = [this.identifier(allowReserved)];
    while (this.accept(',')) list.push(this.identifier(allowReserved));
    return list;
  }

  /** `(a, b, ...)` when the next token opens one, else undefined. */
  protected optionalIdentifierList(): Identifier[] | undefined {
    if (!this.accept('(')) return undefined;
    const list = this.identifierList();
    this.expect(')');
    return list;
  }

  protected integer(): number {
    const token = this.peek();
    if (token.kind !== 'number' || !/^\d+$/.test(token.value)) this.fail('<integer>');
    this.next();
    return Number(token.value);
  }

  protected stringLiteral(): string {
    const token = this.peek();
    if (token.kind !== 'string') this.fail('<string>');
    this.next();
    return token.value;
  }

  /** The source text between two token indexes (for error messages naming a construct). */
  protected textFrom(startIndex: number): string {
    const start = this.tokens[startIndex] as Token;
    const end = this.tokens[Math.max(startIndex, this.index - 1)] as Token;
    return this.sql.slice(start.offset, end.end);
  }
}
