// Shared CLI plumbing: user mistakes and AWS failures print a message and a hint, never a stack trace.
import { CommanderError, type Command } from 'commander';
import { InvalidOptionError, LabError, UnknownNameError } from './errors';
import { errorHint } from './error-hints';

// Set LOGLAKE_DEBUG=1 to see stack traces of unexpected errors.

export async function runCli(main: () => Promise<number>): Promise<never> {
  let code: number;
  try {
    code = await main();
  } catch (error) {
    code = 1;
    if (error instanceof CommanderError) {
      // Commander has printed the help (exit 0) or the usage error with its hint (exit 1) already: once is enough.
      code = error.exitCode;
    } else if (error instanceof LabError) {
      console.error(`${error.name}: ${error.message}`);
    } else if (error instanceof Error) {
      // AWS service errors and other packages' errors carry their reason in the message; the stack only helps us.
      const hint = errorHint(error);
      console.error(`${error.name}: ${error.message}${hint ? `\n${hint}` : ''}`);
      if (process.env.LOGLAKE_DEBUG) console.error(error.stack);
    } else {
      console.error(String(error));
    }
  }
  process.exit(code);
}

/**
 * Usage errors are reported once, with the way to the help; `--help` exits 0. Applied to a command and every
 * subcommand it has when called (so call it after registering them).
 */
export function helpfulUsage(command: Command, helpCommand: string): Command {
  command.showHelpAfterError(`(${helpCommand} --help lists what exists)`).showSuggestionAfterError(true);
  for (const sub of command.commands) helpfulUsage(sub, `${helpCommand} ${sub.name()}`);
  return command;
}

/**
 * A root command with subcommands and an action of its own (`pnpm lab` runs the whole lab) takes no operands: a
 * first word that is not a command is an unknown command, reported with the commands there are and the nearest one.
 */
export function refuseUnknownCommand(command: Command, operands: readonly string[]): void {
  const word = operands[0];
  if (word === undefined) return;
  const names = command
    .createHelp()
    .visibleCommands(command)
    .map((c) => c.name())
    .filter((name) => name !== 'help');
  const near = nearestName(word, names);
  command.error(
    `error: unknown command '${word}'${near ? ` (did you mean ${near}?)` : ''}. The commands are: ${names.join(', ')}.`,
    { code: 'commander.unknownCommand', exitCode: 1 },
  );
}

/** Optimal string alignment distance (edits, with adjacent transpositions counted once). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 0; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * The candidate a mistyped name most likely meant: the closest within 3 edits that keeps more than 40 % of the
 * longer name (commander's rule for options), or one the word is a prefix of; undefined when none is close.
 */
export function nearestName(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 4;
  for (const candidate of new Set(candidates)) {
    const distance = editDistance(word, candidate);
    const length = Math.max(word.length, candidate.length);
    if ((length - distance) / length > 0.4 && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best) return best;
  const prefixed = candidates.filter((c) => word.length >= 3 && c.startsWith(word));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** " (did you mean x?)" for an unknown name, or "". */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const near = nearestName(word, candidates);
  return near ? ` (did you mean ${near}?)` : '';
}

/** An unknown name among known ones: names it, suggests the nearest, lists them all. */
export function unknownName(what: string, word: string, candidates: readonly string[]): UnknownNameError {
  return new UnknownNameError(
    `No ${what} named ${word}${didYouMean(word, candidates)}. Valid names, in order: ${candidates.join(', ')}.`,
    { value: word },
  );
}

/** A flag's text as an integer ≥ min (commander hands option values over as strings). */
export function integerAtLeast(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new InvalidOptionError(`${flag} ${value} is not an integer ≥ ${min}.`, { value });
  return n;
}

/** A flag's text as a whole number from `min` to `max`. */
export function integerBetween(flag: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidOptionError(`${flag} ${raw} is not a whole number between ${min} and ${max}.`, {
      value: raw,
    });
  }
  return value;
}

/** A flag's text as a share between 0 and 1. */
export function shareOf(flag: string, raw: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new InvalidOptionError(`${flag} ${raw} is not a share between 0 and 1 (e.g. 0.1 for 10%).`, {
      value: raw,
    });
  }
  return value;
}
