import type { Command } from 'commander';

// Placeholder until its owner lands the real commands.
export function registerLocalCommands(_program: Command): void {}
