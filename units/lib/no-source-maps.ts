// Preloaded by the cdktf app command (cdktf.json) after tsx: turns off the Node source-map support tsx turns on.
// Synth never prints a stack trace, but cdktf captures one for every token it creates, and with source maps on Node
// maps each frame through the source maps of every module on the stack — parsing multi-MB maps of the provider
// bindings — which cost about 0.4 s of a cold lab synth. To debug a crash with TypeScript line numbers, run with
// NODE_OPTIONS=--enable-source-maps and this preload leaves them on.
const wanted = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].includes(
  '--enable-source-maps',
);
if (!wanted) process.setSourceMapsEnabled(false);
