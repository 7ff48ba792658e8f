// Runs synchronously in <head>, before the first paint, so the page never
// flashes the wrong theme. Mirrors src/lib/theme.ts: the visitor's choice in
// localStorage 'theme' ('dark' | 'light') wins, else the system preference.
(function () {
  var theme = null;
  try {
    var stored = window.localStorage.getItem('theme');
    if (stored === 'dark' || stored === 'light') theme = stored;
  } catch (_) {
    // Storage can be blocked (privacy settings, sandboxed frames).
  }
  if (!theme) {
    theme = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  var root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
})();
