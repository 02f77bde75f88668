// The metadata tables read manifests through the engine's reader (manifests/manifest-io.ts), as pyiceberg's
// InspectTable reads through its scan's: no Avro decoder of their own, and not the conformance oracle's.
import { describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('.', import.meta.url));

describe('metadata tables', () => {
  test("read Avro only through the engine's manifest reader", () => {
    // Prepare
    const sources = readdirSync(DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

    // Act
    const offenders = sources.filter((f) =>
      /from '(avsc|\.\.\/conformance\/[^']*)'/.test(readFileSync(`${DIR}/${f}`, 'utf8')),
    );

    // Assess
    expect(sources).toContain('manifest-rows.ts');
    expect(offenders).toEqual([]);
  });
});
