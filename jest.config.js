// ESM TypeScript through ts-jest in transpile-only mode; `pnpm typecheck` does the type checking once.
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, diagnostics: false }],
  },
  testMatch: ['<rootDir>/{packages,stacks,units,scripts,tools,test}/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/cdktf.out/', '/.lab/'],
  testTimeout: 120000,
};
