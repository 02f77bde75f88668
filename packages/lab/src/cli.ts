#!/usr/bin/env node
// `pnpm lab`: the lab's one entry point. Each command family lives in its own module under commands/.
import { Command } from 'commander';
import { helpfulUsage } from './cli-support';
import { registerInfraCommands } from './commands/infra';
import { registerLocalCommands } from './commands/local';
import { registerLabCommands } from './commands/lab';
import { registerSnapshotCommands } from './commands/snapshot';

const program = new Command('lab').description('loglake: the S3 Tables log lake lab, offline by default');
registerLabCommands(program);
registerInfraCommands(program);
registerLocalCommands(program);
registerSnapshotCommands(program);
helpfulUsage(program, 'pnpm lab');

await program.parseAsync(process.argv);
