import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Vitest runs without globals, so Testing Library cannot register its own
// automatic cleanup: unmount what each test rendered here.
afterEach(() => {
  cleanup();
  window.localStorage.clear();
  document.documentElement.className = '';
});

// jsdom does not implement scrolling; the router's scroll restoration calls it.
window.scrollTo = () => {};
