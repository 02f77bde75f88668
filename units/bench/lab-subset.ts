// Synthesizes only the named units (argv) of the lab to CDKTF_OUTDIR; the synth bench uses it to attribute time.
import { App } from 'cdktf';
import { resolveLab } from '../index';
import { buildLab } from '@loglake/stacks';

const outdir = process.env.CDKTF_OUTDIR ?? 'cdktf.out';
const lab = await resolveLab({ env: {} });
const { app } = await buildLab(lab, { app: new App({ outdir }), outdir, only: process.argv.slice(2) });
app.synth();
