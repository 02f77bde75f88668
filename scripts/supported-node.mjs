// Runs a command on a Node the project supports (22 or later: scripts/node-versions.json). On an older Node (a
// fresh Debian machine has 20) it runs the command with Node 22 from the npm registry first on PATH, fetched once
// into .lab/node (scripts/node-runtime.mjs), so the README's commands work there too; on a supported Node it just
// runs the command. `--cdktf` first: the command runs the cdktf CLI, which starts only on a Node its node-pty has a
// prebuilt binary for (up to 22 with cdktf-cli 0.21), so on a newer Node it runs on the minimum line instead.
// Ctrl-C goes to the command, which decides how to stop; its exit code is this script's.
import { spawn } from 'node:child_process';
import { delimiter } from 'node:path';
import { cdktfRunsOnThisNode, ensureNode, NODE_VERSIONS, needsNewerNode } from './node-runtime.mjs';

const argv = process.argv.slice(2);
const forCdktf = argv[0] === '--cdktf';
const [command, ...args] = forCdktf ? argv.slice(1) : argv;
if (!command) {
  process.stderr.write('usage: node scripts/supported-node.mjs [--cdktf] <command> [args...]\n');
  process.exit(2);
}
const env = { ...process.env };
const tooOld = needsNewerNode(process.versions.node);
const cdktfCannotStart = forCdktf && !tooOld && cdktfRunsOnThisNode() === false;
if (tooOld || cdktfCannotStart) {
  const log = (line) => process.stderr.write(`${line}\n`);
  let bin;
  try {
    bin = ensureNode(NODE_VERSIONS.minimum, log);
  } catch (error) {
    log(
      `${tooOld ? `This machine's Node ${process.versions.node} is older than the project's minimum, ${NODE_VERSIONS.minimumMajor},` : `The cdktf CLI cannot start on Node ${process.versions.node} (no node-pty build for it),`} ` +
        `and Node ${NODE_VERSIONS.minimum} could not be fetched: ${error.message}`,
    );
    process.exit(1);
  }
  log(
    tooOld
      ? `(Node ${process.versions.node} is older than the project's minimum ${NODE_VERSIONS.minimumMajor}: running on ` +
          `Node ${NODE_VERSIONS.minimum} from .lab/node)`
      : `(the cdktf CLI has no node-pty build for Node ${process.versions.node}: running it on Node ` +
          `${NODE_VERSIONS.minimum} from .lab/node)`,
  );
  env.PATH = `${bin}${delimiter}${env.PATH ?? ''}`;
}
// The command's own Ctrl-C handling runs (the lab finishes requests in flight); this process waits for it.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
const child = spawn(command, args, { stdio: 'inherit', env });
child.on('error', (error) => {
  process.stderr.write(`could not run ${command}: ${error.message}\n`);
  process.exit(127);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));
