import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // PGlite instances are heavy (WASM and a data folder in memory each): two
    // files at a time keeps a 2-core machine responsive. Set once here because
    // vitest requires projects that run together to share it.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'contracts',
          root: './packages/contracts',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          // Property tests run hundreds of cases each: well under a second on
          // a quiet machine, several seconds when the suite shares 2 busy cores.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'tracker',
          root: './packages/tracker',
          include: ['src/**/*.test.ts'],
          environment: 'jsdom',
        },
      },
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['./src/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      './apps/web/vitest.config.ts',
    ],
  },
});
