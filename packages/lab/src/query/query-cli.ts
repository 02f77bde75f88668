// `pnpm query <name|file> [--param k=v ...] [--target local|aws]`, and `pnpm query --list`.
import { Command, Option } from 'commander';
import { InvalidOptionError } from '../errors';
import { helpfulUsage } from '../cli-support';
import { outputColumns } from '../report/format';
import { requireAwsCredentials } from '../target/aws-credentials';
import { diagnoseDataFolder } from '../target/data-folder';
import { openTarget } from '../target/open-target';
import { parseParamPairs } from './params';
import { describeResult } from './print-query';
import { runNamedQuery } from './run-named-query';
import { findTemplate, listTemplates, renderTemplate } from './templates';
import { labTemplateData } from './lab-data';
import { UnknownNameError } from '../errors';

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

export async function queryCli(argv: string[]): Promise<number> {
  const program = queryCommand();
  program.parse(argv, { from: 'user' });
  const options = program.opts<{
    param: string[];
    target: string;
    list?: boolean;
    dryRun?: boolean;
    dataDir?: string;
    data?: string;
    endpointUrl?: string;
    outputsFile?: string;
  }>();
  if (options.data !== undefined && options.dataDir !== undefined && options.data !== options.dataDir)
    throw new InvalidOptionError('--data is --data-dir: give one of them.', options.data);
  const dataDir = options.dataDir ?? options.data;
  const name = program.args[0];
  if (options.list || !name) {
    for (const t of listTemplates()) {
      const params = t.params.map((p) => ` --param ${p.name}=<${p.kind}>`).join('');
      console.log(`${t.name}${params}\n    ${t.description}`);
    }
    if (!name && !options.list) throw new UnknownNameError('Name a query to run (listed above).', undefined);
    return 0;
  }
  const params = parseParamPairs(options.param);
  if (options.dryRun) {
    for (const sql of renderTemplate(findTemplate(name), params, labTemplateData())) console.log(`${sql};\n`);
    return 0;
  }
  findTemplate(name); // fail on a bad name before starting anything
  const target = await openTarget({
    target: options.target,
    dataDir,
    ...(options.endpointUrl !== undefined ? { endpointUrl: options.endpointUrl } : {}),
    outputsFile: options.outputsFile,
  });
  try {
    await requireAwsCredentials(target);
    // One line of preamble: where the query runs (the lab's full banner is about the lab's run, not a query).
    console.error(target.headline ?? target.banner[0]);
    let run;
    try {
      run = await runNamedQuery(target.athenaTarget(), name, params);
    } catch (error) {
      // A local endpoint that failed on its folder (read-only, gone, full) says so in an engine error: name it.
      const problem = target.dataDir ? diagnoseDataFolder(target.dataDir) : undefined;
      if (problem) throw problem;
      throw error;
    }
    const width = outputColumns();
    for (const { sql, result } of run.statements) {
      if (run.statements.length > 1) console.log(`\n${sql.split('\n')[0]} …`);
      console.log(describeResult(result, width));
    }
    return 0;
  } finally {
    await target.close();
  }
}
