import type { Command } from 'commander';

// Placeholder until its owner lands the real commands.
export function registerSnapshotCommands(_program: Command): void {}
