/**
 * The layout rules of spec section 2, as one pure function: which chrome
 * (top navbar, sidebar) a path gets.
 *
 * - The top navbar appears only on `/`, `/features`, `/pricing` and
 *   `/solutions`, and never on a shared or embedded view.
 * - The sidebar appears on every other page except chat pages (`/chat/:id`),
 *   views embedded in a frame and shared views.
 */

export type LayoutKind = 'marketing' | 'app' | 'chat' | 'shared' | 'embedded';

export type Layout = {
  kind: LayoutKind;
  showNavbar: boolean;
  showSidebar: boolean;
};

export type LayoutInput = {
  pathname: string;
  /** `window.self !== window.top`: the view is shown inside someone else's frame. */
  isEmbedded?: boolean;
  /** The matched route carries the `shared` flag. */
  isSharedRoute?: boolean;
};

export const NAVBAR_PATHS: readonly string[] = ['/', '/features', '/pricing', '/solutions'];

const REPORT_VIEW = '(?:report|chart|leaders)';
const SEGMENT = '[^/]+';

/** The spec's list of shared-view patterns (besides routes flagged shared). */
const SHARED_PATTERNS: readonly RegExp[] = [
  /\/public-reports\//,
  /\/shared\//,
  new RegExp(`^/course/${SEGMENT}/variable/${SEGMENT}/${REPORT_VIEW}/?$`),
  new RegExp(`^/questions/${SEGMENT}/${REPORT_VIEW}/?$`),
  new RegExp(`^/chatbot/${SEGMENT}/${REPORT_VIEW}/?$`),
];

const CHAT_PATTERN = new RegExp(`^/chat/${SEGMENT}/?$`);

function normalize(pathname: string): string {
  if (pathname.length > 1 && pathname.endsWith('/')) return pathname.slice(0, -1);
  return pathname || '/';
}

export function isSharedView(pathname: string): boolean {
  return SHARED_PATTERNS.some((pattern) => pattern.test(pathname));
}

export function isChatPage(pathname: string): boolean {
  return CHAT_PATTERN.test(pathname);
}

export function isEmbeddedInFrame(win: Window = window): boolean {
  try {
    return win.self !== win.top;
  } catch {
    // A cross-origin parent denies access to `top`: we are framed.
    return true;
  }
}

export function resolveLayout({ pathname, isEmbedded = false, isSharedRoute = false }: LayoutInput): Layout {
  const path = normalize(pathname);
  if (isSharedRoute || isSharedView(path)) return { kind: 'shared', showNavbar: false, showSidebar: false };
  if (isEmbedded) return { kind: 'embedded', showNavbar: false, showSidebar: false };
  if (NAVBAR_PATHS.includes(path)) return { kind: 'marketing', showNavbar: true, showSidebar: false };
  if (isChatPage(path)) return { kind: 'chat', showNavbar: false, showSidebar: false };
  return { kind: 'app', showNavbar: false, showSidebar: true };
}
