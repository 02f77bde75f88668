// cdktf app entry. cdktf.json runs it as `node --import tsx --import ./units/lib/no-source-maps.ts units/main.ts`
// (node itself: `npx tsx` starts three processes): resolve the live tree, build one stack per unit, synth.
// Synth only wires units to stacks; all logic lives in the catalog (stacks/).
import { buildLab, synthCommand } from '@loglake/stacks';
import { resolveLab } from './index';

try {
  const lab = await resolveLab({ labId: process.env.LAB_ID });
  const { app } = await buildLab(lab, {
    command: synthCommand(),
    outdir: process.env.CDKTF_OUTDIR ?? 'cdktf.out',
  });
  app.synth();
} catch (error) {
  const e = error as Error;
  console.error(`${e.name ?? 'Error'}: ${e.message}`);
  process.exit(1);
}
