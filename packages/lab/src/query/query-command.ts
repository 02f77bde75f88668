// `pnpm query`'s command line (light to load, so --help answers at once); query-cli.ts runs the query.
import { Command, Option } from 'commander';
import { helpfulUsage } from '../cli-support';

export interface QueryOptions {
  param: string[];
  target: string;
  list?: boolean;
  dryRun?: boolean;
  dataDir?: string;
  data?: string;
  endpointUrl?: string;
  outputsFile?: string;
}

export function queryCommand(): Command {
  const command = new Command('query')
    .description('Run a sql/ template (or a .sql file) in the lab workgroup and print its results and cost.')
    .argument('[name]', 'query name (namespace/name or a unique name) or a .sql/.sql.njk file')
    .option(
      '-p, --param <name=value>',
      'template parameter (repeatable)',
      (v: string, acc: string[]) => [...acc, v],
      [],
    )
    .option('-t, --target <target>', 'local (default: in-process endpoint, no AWS) or aws', 'local')
    .option('--list', 'list the queries and their parameters')
    .option('--dry-run', 'print the rendered SQL without running it')
    .option(
      '--data-dir <dir>',
      "local target: the local lake, the endpoint's data folder (default .lab/local)",
    )
    .addOption(new Option('--data <dir>', 'alias of --data-dir').hideHelp())
    .option('--endpoint-url <url>', 'local target: a running `pnpm lab local` (e.g. http://127.0.0.1:4566)')
    .option(
      '--outputs-file <file>',
      'aws target: cdktf deploy --outputs-file JSON (default .lab/cdktf-outputs.json)',
    )
    .exitOverride();
  return helpfulUsage(command, 'pnpm query');
}
