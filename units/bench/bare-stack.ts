// Baseline for the synth bench: one bare stack with only the AWS provider, synthesized to CDKTF_OUTDIR.
import { App, TerraformStack } from 'cdktf';
import type * as awsProvider from '@cdktf/provider-aws/lib/provider';
import { awsLib } from '@loglake/stacks';

const { AwsProvider } = awsLib<typeof awsProvider>('provider');

const app = new App({ outdir: process.env.CDKTF_OUTDIR ?? 'cdktf.out' });
const stack = new TerraformStack(app, 'bare');
new AwsProvider(stack, 'aws', { region: 'us-east-1' });
app.synth();
