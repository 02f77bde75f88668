import type { Command } from 'commander';

// Placeholder until its owner lands the real commands.
export function registerInfraCommands(_program: Command): void {}
