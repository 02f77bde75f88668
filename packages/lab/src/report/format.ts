// Plain-text tables and human numbers for the terminal.

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)} ${units[unit]}`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** Athena's price per TB scanned (us-east-1, SQL queries). */
export const ATHENA_USD_PER_TB = 5;
const MB = 1024 * 1024;

/** Athena bills scanned bytes rounded up to the megabyte with a 10 MB minimum; a query that reads nothing is free. */
export function athenaCostUsd(bytesScanned: number): { billedBytes: number; usd: number } {
  if (bytesScanned <= 0) return { billedBytes: 0, usd: 0 };
  const billedBytes = Math.max(10 * MB, Math.ceil(bytesScanned / MB) * MB);
  return { billedBytes, usd: (billedBytes / 1e12) * ATHENA_USD_PER_TB };
}

export function formatUsd(usd: number): string {
  return usd === 0 ? '$0' : usd < 0.01 ? `$${usd.toFixed(6)}` : `$${usd.toFixed(4)}`;
}

/**
 * The width output should fit: the terminal's when stdout is one, else $COLUMNS when set (a pipe told how wide its
 * reader is), else undefined (a file or a log: the full layout).
 */
export function outputColumns(
  stream: { isTTY?: boolean; columns?: number } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): number | undefined {
  if (stream.isTTY && stream.columns) return stream.columns;
  const columns = Number(env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : undefined;
}

/**
 * A boxed text table; NULL shown as `NULL`; long cells truncated to keep lines readable. With a `width`, a table
 * wider than it gets narrower columns whose cells wrap, and one too wide even so prints each row as a block of
 * `column │ value` lines.
 */
export function renderTable(
  header: readonly string[],
  rows: readonly (readonly (string | null)[])[],
  maxCell = 60,
  width?: number,
): string {
  const cell = (v: string | null) => {
    const s = v === null ? 'NULL' : v;
    return s.length > maxCell ? `${s.slice(0, maxCell - 1)}…` : s;
  };
  const body = rows.map((r) => header.map((_, i) => cell(r[i] ?? null)));
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] as string).length)));
  const borders = 3 * header.length + 1;
  if (width !== undefined && widths.reduce((a, b) => a + b, 0) + borders > width) {
    const fitted = shrinkToFit(widths, width - borders, MIN_COLUMN);
    if (fitted) return renderWrappedTable(header, body, fitted);
    return renderRecords(header, body, width);
  }
  const line = (l: string, m: string, r: string) => `${l}${widths.map((w) => '─'.repeat(w + 2)).join(m)}${r}`;
  const row = (cells: readonly string[]) =>
    `│ ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(' │ ')} │`;
  return [line('┌', '┬', '┐'), row(header), line('├', '┼', '┤'), ...body.map(row), line('└', '┴', '┘')].join(
    '\n',
  );
}

/** The narrowest a column of a fitted table gets (narrower and most words break). */
const MIN_COLUMN = 8;

/** Widths summing to at most `available`, taking from the widest columns first; undefined when even `min` each is too wide. */
export function shrinkToFit(widths: readonly number[], available: number, min: number): number[] | undefined {
  const out = [...widths];
  if (out.reduce((a, w) => a + Math.min(w, min), 0) > available) return undefined;
  let total = out.reduce((a, b) => a + b, 0);
  while (total > available) {
    const widest = out.indexOf(Math.max(...out));
    if ((out[widest] as number) <= min) return undefined;
    out[widest] = (out[widest] as number) - 1;
    total--;
  }
  return out;
}

/** Each row as a block: `column │ value`, the value wrapped to the width. */
function renderRecords(
  header: readonly string[],
  body: readonly (readonly string[])[],
  width: number,
): string {
  if (body.length === 0) return wrapText(`columns: ${header.join(', ')}`, width).join('\n');
  const label = Math.min(Math.max(...header.map((h) => h.length)), Math.floor(width / 3));
  const valueWidth = Math.max(10, width - label - 3);
  return body
    .map((r, n) =>
      [
        `── row ${n + 1}`,
        ...header.flatMap((h, i) =>
          wrapText(r[i] ?? '', valueWidth).map(
            (line, j) => `${(j === 0 ? h.slice(0, label) : '').padEnd(label)} │ ${line}`,
          ),
        ),
      ].join('\n'),
    )
    .join('\n');
}

/** Splits text into lines of at most `width` characters, at spaces where it can. */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let w = word;
    while (w.length > width) {
      if (line) lines.push(line);
      lines.push(w.slice(0, width));
      w = w.slice(width);
      line = '';
    }
    if (!line) line = w;
    else if (line.length + 1 + w.length <= width) line += ` ${w}`;
    else {
      lines.push(line);
      line = w;
    }
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * A line of progress or banner text fitted to `width` (unchanged without one): leading blank lines and indentation
 * are kept, continuation lines are indented two more.
 */
export function fitLine(line: string, width: number | undefined): string {
  if (width === undefined) return line;
  return line
    .split('\n')
    .map((part) => {
      const indent = /^\s*/.exec(part)?.[0] ?? '';
      if (part.length <= width || part.trim() === '') return part;
      const lines = wrapText(part.slice(indent.length), Math.max(10, width - indent.length - 2));
      return lines.map((l, i) => `${indent}${i === 0 ? '' : '  '}${l}`).join('\n');
    })
    .join('\n');
}

/** A boxed table whose cells wrap to the given column widths, a rule between rows. */
export function renderWrappedTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  widths: readonly number[],
): string {
  const line = (l: string, m: string, r: string) => `${l}${widths.map((w) => '─'.repeat(w + 2)).join(m)}${r}`;
  const block = (cells: readonly string[]) => {
    const wrapped = widths.map((w, i) => wrapText(cells[i] ?? '', w));
    const height = Math.max(...wrapped.map((c) => c.length));
    return Array.from(
      { length: height },
      (_, r) => `│ ${wrapped.map((c, i) => (c[r] ?? '').padEnd(widths[i] as number)).join(' │ ')} │`,
    );
  };
  return [
    line('┌', '┬', '┐'),
    ...block(header),
    line('├', '┼', '┤'),
    ...rows.flatMap((r, i) => [...(i > 0 ? [line('├', '┼', '┤')] : []), ...block(r)]),
    line('└', '┴', '┘'),
  ].join('\n');
}
