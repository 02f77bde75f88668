// @loglake/stacks — the catalog: one stack per unit kind (stacks/<kind>/{inputs,stack}.ts) plus shared constructs.
// This face builds the lab (loads cdktf). ./inputs (each kind's inputs and the unit contract) is pure — no cdktf —
// so @loglake/units imports it cheaply; ./access reads the lab's access from its synthesized stacks, for the lab;
// ./testing is the Terraform toolchain for tests.
export { buildLab, synthCommand } from './app';
export { awsLib } from './lib/provider-aws';
