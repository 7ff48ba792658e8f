import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy* and waitFor retry until their condition holds; this is only how
// long they keep trying. Testing Library's default (1 s) is shorter than one
// role query over a large form on a loaded 2-core machine, so a correct page
// could fail there. Tests that pass are not slowed down.
configure({ asyncUtilTimeout: 10_000 });

// Vitest runs without globals, so Testing Library cannot register its own
// automatic cleanup: unmount what each test rendered here.
afterEach(() => {
  cleanup();
  window.localStorage.clear();
  document.documentElement.className = '';
});

// jsdom does not implement scrolling; the router's scroll restoration calls it.
window.scrollTo = () => {};
