import { paths } from '@/config/paths';

/**
 * The routes whose feature belongs to a later capability. Each is a real
 * route with the real layout; until its capability ships it shows its title
 * and an empty state that says what will appear there (never a fake result).
 * What each says lives in `screen-texts.ts`, loaded with the page, so the
 * main chunk (which the public pages download) carries paths, not sentences.
 */
export type ScreenRoute = {
  path: string;
  access: 'auth' | 'public';
  /** Flagged shared: no navbar, no sidebar (spec section 2). */
  shared?: boolean;
};

const p = paths;
const auth = (path: string): ScreenRoute => ({ path, access: 'auth' });

export const screenRoutes: ScreenRoute[] = [auth(p.subscribe.path), auth(p.billing.path)];
