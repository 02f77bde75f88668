// @loglake/stacks — the catalog: one stack per unit kind (stacks/<kind>/{inputs,stack}.ts) plus shared constructs.
// This face builds the lab (loads cdktf). ./inputs (each kind's inputs and the unit contract) and ./access are pure —
// no cdktf — so @loglake/units and the lab import them cheaply; ./testing is the Terraform toolchain for tests.
export { buildLab, synthCommand } from './app';
export { awsLib } from './lib/provider-aws';
