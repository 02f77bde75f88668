// Trino's lexical rules: unquoted identifiers are case-insensitive, "double quotes" keep the text (Athena
// DDL also accepts `backticks`), 'strings' escape a quote by doubling it, -- and /* */ are comments.
import { SqlSyntaxError, type SourcePosition } from '../errors';

export type TokenKind = 'ident' | 'quoted' | 'string' | 'number' | 'op' | 'eof';

export interface Token {
  kind: TokenKind;
  /** ident: lower-cased word; quoted: the identifier text; string: unescaped value; number/op: as written. */
  value: string;
  /** The source text of the token. */
  raw: string;
  offset: number;
  end: number;
  pos: SourcePosition;
}

const TWO_CHAR_OPS = ['<>', '!=', '<=', '>=', '||', '->', '=>', '::'];
const ONE_CHAR_OPS = '(),.;+-*/%=<>[]?:{}|^';

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const position = (offset: number): SourcePosition => ({ line, column: offset - lineStart + 1 });
  const advanceLines = (from: number, to: number): void => {
    for (let k = from; k < to; k++) {
      if (sql[k] === '\n') {
        line++;
        lineStart = k + 1;
      }
    }
  };

  /** The text up to the closing `quote` (a doubled quote stands for one), and the offset after it. */
  const readQuoted = (quote: string, from: number, pos: SourcePosition): { text: string; end: number } => {
    let text = '';
    let k = from;
    for (;;) {
      if (k >= sql.length)
        throw new SqlSyntaxError(
          quote === "'" ? 'unterminated string literal' : 'unterminated quoted identifier',
          pos,
        );
      if (sql[k] === quote) {
        if (sql[k + 1] !== quote) return { text, end: k + 1 };
        k++;
      }
      text += sql[k];
      k++;
    }
  };

  while (i < sql.length) {
    const ch = sql[i] as string;
    if (ch === '\n') {
      line++;
      lineStart = i + 1;
      i++;
      continue;
    }
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '-' && sql[i + 1] === '-') {
      while (i < sql.length && sql[i] !== '\n') i++;
      continue;
    }
    if (ch === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      if (close < 0) throw new SqlSyntaxError('unterminated comment', position(i));
      advanceLines(i, close + 2);
      i = close + 2;
      continue;
    }
    const start = i;
    const pos = position(i);
    if (/[A-Za-z_]/.test(ch)) {
      while (i < sql.length && /[A-Za-z0-9_$@]/.test(sql[i] as string)) i++;
      const raw = sql.slice(start, i);
      tokens.push({ kind: 'ident', value: raw.toLowerCase(), raw, offset: start, end: i, pos });
      continue;
    }
    if (ch === '"' || ch === '`' || ch === "'") {
      const { text, end } = readQuoted(ch, i + 1, pos);
      advanceLines(start, end);
      i = end;
      const kind = ch === "'" ? 'string' : 'quoted';
      if (kind === 'quoted' && text === '')
        throw new SqlSyntaxError('Zero-length delimited identifier not allowed', pos);
      tokens.push({ kind, value: text, raw: sql.slice(start, i), offset: start, end: i, pos });
      continue;
    }
    if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      while (i < sql.length && /[0-9_]/.test(sql[i] as string)) i++;
      if (sql[i] === '.' && sql[i + 1] !== '.') {
        i++;
        while (i < sql.length && /[0-9]/.test(sql[i] as string)) i++;
      }
      if (/[eE]/.test(sql[i] ?? '') && /[-+0-9]/.test(sql[i + 1] ?? '')) {
        i += 2;
        while (i < sql.length && /[0-9]/.test(sql[i] as string)) i++;
      }
      if (/[A-Za-z_]/.test(sql[i] ?? '')) {
        throw new SqlSyntaxError(
          `identifiers must not start with a digit; surround the identifier with double quotes`,
          pos,
        );
      }
      const raw = sql.slice(start, i);
      tokens.push({ kind: 'number', value: raw.replace(/_/g, ''), raw, offset: start, end: i, pos });
      continue;
    }
    const two = sql.slice(i, i + 2);
    if (TWO_CHAR_OPS.includes(two)) {
      i += 2;
      tokens.push({ kind: 'op', value: two, raw: two, offset: start, end: i, pos });
      continue;
    }
    if (ONE_CHAR_OPS.includes(ch)) {
      i++;
      tokens.push({ kind: 'op', value: ch, raw: ch, offset: start, end: i, pos });
      continue;
    }
    throw new SqlSyntaxError(`token recognition error at: '${ch}'`, pos, ch);
  }
  tokens.push({
    kind: 'eof',
    value: '<EOF>',
    raw: '',
    offset: sql.length,
    end: sql.length,
    pos: position(i),
  });
  return tokens;
}
