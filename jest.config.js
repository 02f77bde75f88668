// ESM TypeScript through ts-jest in transpile-only mode; `pnpm typecheck` does the type checking once.
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, diagnostics: false, tsconfig: '<rootDir>/tsconfig.base.json' }],
  },
  testMatch: ['<rootDir>/{packages,stacks,units,scripts,tools,test}/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/cdktf.out/', '/.lab/', '/.tsbuild/'],
  testTimeout: 120000,
};
