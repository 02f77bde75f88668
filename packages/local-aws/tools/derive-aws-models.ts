// `pnpm models:derive --from <dir> --repository <owner/name> --commit <sha>`: reads AWS's Smithy models (the
// layout of the aws/api-models-aws repository: models/<service>/service/<version>/<service>-<version>.json) and
// writes their compact form to packages/local-aws/models/<service>.json, recording where each came from.
// Run it again from a newer checkout to move the endpoint to newer models; the conformance suite then says what
// changed.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { deriveCompactModel, type SmithyModel } from './derive';
import { OUTPUT_SHAPES_OF_MODELS, SERVED_OPERATIONS_OF_LARGE_MODELS } from '../src/model/served';

const SERVICES: { dir: string; version: string }[] = [
  { dir: 's3tables', version: '2018-05-10' },
  { dir: 'firehose', version: '2015-08-04' },
  { dir: 'athena', version: '2017-05-18' },
  { dir: 'glue', version: '2017-03-31' },
  { dir: 's3', version: '2006-03-01' },
  { dir: 'cloudwatch', version: '2010-08-01' },
];

const program = new Command()
  .requiredOption('--from <dir>', 'a checkout of the models repository (its root)')
  .requiredOption('--repository <owner/name>', 'the repository the checkout is of')
  .requiredOption('--commit <sha>', 'the commit checked out')
  .option('--out <dir>', 'where to write', 'packages/local-aws/models')
  .parse();
const options = program.opts<{ from: string; repository: string; commit: string; out: string }>();
if (!/^[0-9a-f]{40}$/.test(options.commit)) {
  console.error(`--commit ${options.commit} is not a full commit hash: give the 40 hex digits.`);
  process.exit(2);
}

for (const { dir, version } of SERVICES) {
  const path = `models/${dir}/service/${version}/${dir}-${version}.json`;
  const text = readFileSync(join(resolve(options.from), path));
  const compact = deriveCompactModel(JSON.parse(text.toString('utf8')) as SmithyModel, {
    source: {
      repository: options.repository,
      commit: options.commit,
      path,
      sha256: createHash('sha256').update(text).digest('hex'),
      licence: 'Apache-2.0',
    },
    inputShapesFor: SERVED_OPERATIONS_OF_LARGE_MODELS[dir],
    outputShapesFor: OUTPUT_SHAPES_OF_MODELS[dir],
  });
  const file = join(options.out, `${dir}.json`);
  writeFileSync(file, `${JSON.stringify(compact, null, 1)}\n`);
  const kept = Object.values(compact.operations).filter((o) => o.inputShapes).length;
  console.log(
    `${file}: ${Object.keys(compact.operations).length} operations (${kept} with input shapes), ` +
      `${Object.keys(compact.shapes).length} shapes, ${(text.length / 1024).toFixed(0)} KiB read`,
  );
}
