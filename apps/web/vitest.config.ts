import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/testing/setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
    // Genuinely long on a busy machine: the first test of every file pays for
    // warming up a fresh jsdom (React's first render, Testing Library's first
    // role query compiling its selectors), about 1 s of CPU on a quiet
    // machine and four to five times that when the suite shares 2 cores. A
    // test that passes still ends as soon as its last condition holds.
    testTimeout: 20_000,
  },
});
