import type { Config } from 'jest';

const swcTransform: Config['transform'] = {
  '^.+\\.(t|j)sx?$|^.+\\.mjs$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        target: 'es2022',
        transform: { react: { runtime: 'automatic' } },
      },
      module: { type: 'commonjs' },
    },
  ],
};

/** ESM-only packages under node_modules that jest must compile to CommonJS. */
const ESM_PACKAGES = ['@ant-design', '@rc-component', 'rc-[^/]+', 'antd', '@babel/runtime'];

const shared = {
  transform: swcTransform,
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  moduleNameMapper: {
    '^@/(.*)$': '<rootDir>/src/$1',
    // The browser build, as webpack takes it through the package's `browser` field (jest reads `main`, the Node one).
    '^tus-js-client$': '<rootDir>/node_modules/tus-js-client/lib.es5/browser/index.js',
  },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
};

/**
 * Two projects: component and unit tests under src/ run in jsdom; the document-model
 * vector tests under tests/ are plain TypeScript and run in node.
 */
const config: Config = {
  // Component tests render the whole app; on a shared 2-core machine the first one warms up slowly.
  testTimeout: 30_000,
  // A worker per core: jest's default (cores − 1) ran the suite in band on the 2-core machine, one
  // core idle for the whole phase (docs/benchmarks.md, "Build": 16 min with two workers).
  maxWorkers: '100%',
  // A handle left open by a page test (found in CI: jest idled for minutes after every test had
  // passed) must not hold the run: results are final once the last test ends.
  forceExit: true,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testEnvironment: '<rootDir>/src/test/jsdom-environment.cjs',
      testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/src/**/*.test.tsx'],
      setupFilesAfterEnv: ['<rootDir>/src/test/setup.ts'],
    },
    {
      ...shared,
      displayName: 'model',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/tests/**/*.test.ts', '<rootDir>/tests/**/*.test.tsx'],
    },
  ],
};

export default config;
