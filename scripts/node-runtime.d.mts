// Types of node-runtime.mjs (plain JavaScript, so it runs on an unsupported Node before the TypeScript tooling).
export declare const REPO_ROOT: string;
export declare const NODE_VERSIONS: { minimumMajor: number; minimum: string; lts: string };
export declare function needsNewerNode(version: string, minimumMajor?: number): boolean;
export declare function nodePackageFor(platform: string, arch: string): string;
export declare function ensureNode(version: string, log?: (line: string) => void): string;
export declare function cdktfRunsOnThisNode(
  root?: string,
  versions?: { modules: string },
): boolean | undefined;
