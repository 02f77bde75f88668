import type { Command } from 'commander';

// Placeholder until its owner lands the real commands.
export function registerLabCommands(_program: Command): void {}
