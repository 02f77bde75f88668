// `pnpm query <name|file> [--param k=v ...] [--target local|aws]`, and `pnpm query --list`.
import { queryCommand, type QueryOptions } from './query-command';
import { InvalidOptionError } from '../errors';
import { outputColumns } from '../report/format';
import { requireAwsCredentials } from '../target/aws-credentials';
import { diagnoseDataFolder } from '../target/data-folder';
import { openTarget } from '../target/open-target';
import { describeResult } from './print-query';
import { runNamedQuery } from './run-named-query';
import { listTemplates, parseParamPairs, renderTemplate } from '@loglake/athena-sql';
import { findTemplate } from './find-template';
import { labTemplateData } from './lab-data';
import { UnknownNameError } from '../errors';

export async function queryCli(argv: string[]): Promise<number> {
  const program = queryCommand();
  program.parse(argv, { from: 'user' });
  return queryMain(program.args[0], program.opts<QueryOptions>());
}

export async function queryMain(name: string | undefined, options: QueryOptions): Promise<number> {
  if (options.data !== undefined && options.dataDir !== undefined && options.data !== options.dataDir)
    throw new InvalidOptionError('--data is --data-dir: give one of them.', { value: options.data });
  const dataDir = options.dataDir ?? options.data;
  if (options.list || !name) {
    for (const t of listTemplates()) {
      const params = t.params.map((p) => ` --param ${p.name}=<${p.kind}>`).join('');
      console.log(`${t.name}${params}\n    ${t.description}`);
    }
    if (!name && !options.list) throw new UnknownNameError('Name a query to run (listed above).', {});
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
      const problem = target.dataDir
        ? diagnoseDataFolder(target.dataDir, '--data-dir', target.dataDirIdentity)
        : undefined;
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
