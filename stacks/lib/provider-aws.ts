// Loads AWS provider binding modules with require(), not import. The bindings are CommonJS files of up to 2.5 MB
// (most of it an inline source map); an ESM `import` of one makes Node lex the whole file for its export names and,
// under tsx, pass it through the loader thread first. For the lab's ~30 resource kinds that was the largest part of
// a cold `cdktf synth`; require() reads and compiles each module once. Type with the module's own types:
//
//   import type * as s3Bucket from '@cdktf/provider-aws/lib/s3-bucket';
//   const { S3Bucket } = awsLib<typeof s3Bucket>('s3-bucket');
//
// Same module instances as an import would give (Node shares the CommonJS cache with ESM imports of it).
import { createRequire } from 'node:module';

const requireCjs = createRequire(import.meta.url);

/** The module `@cdktf/provider-aws/lib/<name>` (a deep import: the package index would load every binding). */
export function awsLib<M>(name: string): M {
  return requireCjs(`@cdktf/provider-aws/lib/${name}`) as M;
}
