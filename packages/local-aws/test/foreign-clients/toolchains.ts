// The clients on this machine that nobody here wrote, found explicitly: every `aws` executable on PATH (and the usual
// install folders), told apart by `aws --version` — the v1 CLI (pip/pyenv) and the v2 CLI (Debian's `awscli`
// package, the official installer) are both called `aws`, and whichever comes first on PATH hides the other —, and a
// Python that imports boto3 (the v1 CLI's own interpreter has it). LOGLAKE_AWS_CLI_V1 / _V2 and LOGLAKE_BOTO3_PYTHON
// name them directly.
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface AwsCli {
  readonly path: string;
  readonly major: 1 | 2;
  /** `aws --version`'s first word, e.g. `aws-cli/2.9.19`. */
  readonly version: string;
}

export type Found<T> = { found: T } | { missing: string };

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function candidates(name: string, env: NodeJS.ProcessEnv): string[] {
  const dirs = [
    ...(env.PATH ?? '').split(delimiter).filter(Boolean),
    '/usr/local/bin',
    '/usr/bin',
    join(homedir(), '.local', 'bin'),
  ];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const dir of dirs) {
    const path = join(dir, name);
    if (!existsSync(path) || !executable(path)) continue;
    let real = path;
    try {
      real = realpathSync(path);
    } catch {
      // A dangling link: skipped.
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    out.push(path);
  }
  return out;
}

async function version(path: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  try {
    const { stdout, stderr } = await run(path, ['--version'], { env, timeout: 30_000 });
    return /aws-cli\/\d+\.\d+\.\d+/.exec(`${stdout} ${stderr}`)?.[0];
  } catch {
    return undefined;
  }
}

/** The AWS CLI v1 and v2, each the first of its major version found (or why none was). */
export async function findAwsClis(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ v1: Found<AwsCli>; v2: Found<AwsCli> }> {
  const found: Partial<Record<1 | 2, AwsCli>> = {};
  const explicit = [env.LOGLAKE_AWS_CLI_V1, env.LOGLAKE_AWS_CLI_V2].filter((p): p is string => !!p);
  for (const path of [...explicit, ...candidates('aws', env)]) {
    const v = await version(path, env);
    const major = v ? Number(/aws-cli\/(\d+)/.exec(v)?.[1]) : undefined;
    if ((major === 1 || major === 2) && !found[major]) found[major] = { path, major, version: v as string };
  }
  const why = (major: 1 | 2) =>
    `no AWS CLI v${major} found (looked for \`aws\` on PATH, /usr/local/bin, /usr/bin, ~/.local/bin; set LOGLAKE_AWS_CLI_V${major}` +
    `${major === 2 ? "; Debian's awscli package is v2" : '; pip install awscli is v1'})`;
  return {
    v1: found[1] ? { found: found[1] } : { missing: why(1) },
    v2: found[2] ? { found: found[2] } : { missing: why(2) },
  };
}

/** A Python that imports boto3: LOGLAKE_BOTO3_PYTHON, the v1 CLI's own interpreter, or python3 on PATH. */
export async function findBoto3Python(
  env: NodeJS.ProcessEnv = process.env,
  v1?: AwsCli,
): Promise<Found<{ python: string; boto3: string }>> {
  const tried: string[] = [];
  const pythons = [
    env.LOGLAKE_BOTO3_PYTHON,
    v1 ? interpreterOf(v1.path) : undefined,
    ...candidates('python3', env),
  ];
  for (const python of pythons.filter((p): p is string => !!p)) {
    tried.push(python);
    try {
      const { stdout } = await run(python, ['-c', 'import boto3, botocore; print(boto3.__version__)'], {
        env,
        timeout: 30_000,
      });
      return { found: { python, boto3: stdout.trim() } };
    } catch {
      // Not this one.
    }
  }
  return { missing: `no Python with boto3 (tried ${tried.join(', ') || 'none'}; set LOGLAKE_BOTO3_PYTHON)` };
}

/** The interpreter a pip-installed `aws` script runs on (its #! line), following a pyenv shim to its version. */
function interpreterOf(cli: string): string | undefined {
  try {
    const first = readFileSync(cli, 'utf8').split('\n', 1)[0] ?? '';
    const shebang = /^#!\s*(\S+)/.exec(first)?.[1];
    if (shebang && !shebang.endsWith('/env') && !shebang.endsWith('bash')) return shebang;
    // A pyenv shim: the versions' bin folders hold the real script, whose interpreter sits beside it.
    if (first.includes('bash') && cli.includes('.pyenv')) {
      const root = join(dirname(dirname(cli)));
      const python = join(root, 'shims', 'python3');
      return existsSync(python) ? python : undefined;
    }
  } catch {
    // Unreadable: none.
  }
  return undefined;
}
