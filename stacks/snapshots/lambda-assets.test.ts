import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, TerraformStack } from 'cdktf';
import { archiveHash, bundledHandlerDir, handlerArchive, handlerAsset } from './lambda-assets';
import { zipDirectory } from './zip';

describe('handler assets', () => {
  let outdir: string;
  beforeAll(() => {
    outdir = mkdtempSync(join(tmpdir(), 'lambda-assets-'));
  });
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  test('the cached deployment zip is the deterministic zip of the cached bundle', () => {
    // Prepare / Act
    const archive = handlerArchive('resolveWatermark');

    // Assess
    expect(readFileSync(archive).equals(zipDirectory(bundledHandlerDir('resolveWatermark')))).toBe(true);
    expect(handlerArchive('resolveWatermark')).toBe(archive);
  });

  test('synth copies the zip under a folder named by its content hash', () => {
    // Prepare
    const app = new App({ outdir });
    const stack = new TerraformStack(app, 'assets');
    const asset = handlerAsset(stack, 'build-asset', 'buildSnapshot');

    // Act
    app.synth();

    // Assess
    const copied = join(outdir, 'stacks', 'assets', asset.path);
    expect(asset.path).toMatch(/^assets\/build-asset\/[0-9A-F]{32}\/archive\.zip$/);
    expect(existsSync(copied)).toBe(true);
    expect(archiveHash(copied)).toBe(asset.assetHash);
    expect(readFileSync(copied).equals(readFileSync(handlerArchive('buildSnapshot')))).toBe(true);
  });
});
