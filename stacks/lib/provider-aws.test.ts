import { describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { TerraformResource, TerraformStack, Testing } from 'cdktf';
import type * as s3Bucket from '@cdktf/provider-aws/lib/s3-bucket';
import { REPO_ROOT } from './paths';
import { awsLib } from './provider-aws';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('awsLib', () => {
  test('loads a provider binding that builds cdktf resources', () => {
    // Prepare
    const { S3Bucket } = awsLib<typeof s3Bucket>('s3-bucket');
    const stack = new TerraformStack(Testing.app(), 'probe');
    // Act
    const bucket = new S3Bucket(stack, 'b', { bucket: 'loglake-01-probe' });
    // Assess
    expect(bucket).toBeInstanceOf(TerraformResource);
    expect(JSON.parse(Testing.synth(stack))).toMatchObject({
      resource: { aws_s3_bucket: { b: { bucket: 'loglake-01-probe' } } },
    });
  });

  test('an unknown binding fails with the module name', () => {
    expect(() => awsLib('no-such-resource')).toThrow(/@cdktf\/provider-aws\/lib\/no-such-resource/);
  });

  // The loaded name is a string and the type a separate `import type`; nothing but this check ties them together.
  test('every awsLib call in stacks/ is typed by the module it loads', () => {
    // Prepare
    const mismatches: string[] = [];
    let calls = 0;
    let typed = 0;
    // Act
    for (const file of sources(join(REPO_ROOT, 'stacks'))) {
      const text = readFileSync(file, 'utf8');
      const typeImports = new Map(
        [...text.matchAll(/import type \* as (\w+) from '@cdktf\/provider-aws\/lib\/([\w-]+)';/g)].map(
          (m) => [m[1], m[2]],
        ),
      );
      // Prettier may break a call over lines: every `awsLib<typeof` must be matched, whatever its layout.
      typed += [...text.matchAll(/awsLib<\s*typeof\b/g)].length;
      for (const m of text.matchAll(/awsLib<\s*typeof\s+(\w+)\s*>\(\s*'([\w-]+)',?\s*\)/g)) {
        calls++;
        if (typeImports.get(m[1]!) !== m[2])
          mismatches.push(`${relative(REPO_ROOT, file)}: awsLib<typeof ${m[1]}>('${m[2]}')`);
      }
    }
    // Assess
    expect(calls).toBeGreaterThan(20);
    expect(calls).toBe(typed);
    expect(mismatches).toEqual([]);
  });
});
