import { installGlobal, type CourseLensGlobal } from './index';

declare global {
  // An interface, because only interfaces merge into the DOM's Window.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface Window {
    CourseLens?: CourseLensGlobal;
  }
}

// document.currentScript is only set while this file first runs.
const script = document.currentScript as HTMLScriptElement | null;
if (!window.CourseLens) installGlobal(window, { scriptSrc: script?.src });
