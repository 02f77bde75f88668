// @loglake/snapshot-lambdas/bundle: the handlers bundled for Lambda (esbuild), for the snapshots stack's assets.
export { bundleHandler, type HandlerName, HANDLERS } from './bundle';
