// Finds a sql/ template by the name a user types: `namespace/name`, a bare name (if unique), or a file path.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { listTemplates, readTemplate, sqlDir, SQL_EXTENSIONS, type SqlTemplate } from '@loglake/athena-sql';
import { UnknownNameError } from '../errors';
import { didYouMean } from '../cli-support';

/** Finds a template by `namespace/name`, bare name (if unique), or file path. */
export function findTemplate(nameOrFile: string, dir: string = sqlDir()): SqlTemplate {
  const isFile = SQL_EXTENSIONS.some((ext) => nameOrFile.endsWith(ext));
  if (isFile && existsSync(nameOrFile)) {
    return readTemplate(resolve(nameOrFile), dir);
  }
  const all = listTemplates(dir);
  const byName = all.find(
    (t) => `${t.name}${SQL_EXTENSIONS.find((ext) => t.path.endsWith(ext))}` === nameOrFile,
  );
  if (isFile && byName) return byName;
  if (isFile)
    throw new UnknownNameError(
      `${nameOrFile}: no such file (from ${process.cwd()}). Give the path of a .sql or .sql.njk file, or a query name (\`pnpm query --list\`).`,
      { value: nameOrFile },
    );
  const matches = all.filter((t) => t.name === nameOrFile || t.name.split('/').pop() === nameOrFile);
  if (matches.length === 1) return matches[0] as SqlTemplate;
  const names = all.map((t) => t.name).join(', ');
  if (matches.length > 1) {
    throw new UnknownNameError(
      `Query name ${nameOrFile} is ambiguous: use one of ${matches.map((t) => t.name).join(', ')}.`,
      { value: nameOrFile },
    );
  }
  const suggestion = didYouMean(
    nameOrFile,
    all.flatMap((t) => [t.name, t.name.split('/').pop() as string]),
  );
  throw new UnknownNameError(`No query named ${nameOrFile}${suggestion}. Valid names: ${names}.`, {
    value: nameOrFile,
  });
}
