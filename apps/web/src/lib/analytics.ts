/**
 * Product analytics (spec section 7) through posthog-js.
 *
 * - Off unless the build sets `VITE_POSTHOG_KEY`: then nothing is loaded and
 *   nothing is sent. `VITE_POSTHOG_HOST` (optional) points at the PostHog
 *   instance or a same-origin proxy path such as `/ingest`.
 * - Started once for the whole app, after the first render: posthog-js is a
 *   lazy chunk, so it never weighs on the first page's JavaScript.
 * - Automatic page views (on every history change) and page-leave events.
 * - Autocapture only on elements carrying the allow-listed attribute
 *   `data-analytics`, and never on an element whose class or name contains
 *   "password" (checked in the selector and again, on the whole element
 *   chain, before an event leaves the browser).
 *
 * Deployment: the server's CSP allows `connect-src 'self'` plus the origins
 * of its `CSP_CONNECT_SRC` setting; set it to the PostHog host (or serve
 * PostHog through a same-origin path such as `VITE_POSTHOG_HOST=/ingest`).
 */
import type { PostHog } from 'posthog-js';

export const ANALYTICS_ATTRIBUTE = 'data-analytics';

/** Elements autocapture may record: allow-listed, and not password-like. */
export const AUTOCAPTURE_SELECTOR = `[${ANALYTICS_ATTRIBUTE}]:not([class*="password" i]):not([name*="password" i])`;

const PASSWORD = /password/i;

type CapturedElement = Record<string, unknown>;

/** True when an autocaptured element chain contains an element whose class or name contains "password". */
export function touchesPasswordElement(properties: Record<string, unknown> | undefined): boolean {
  if (!properties) return false;
  const elements = Array.isArray(properties.$elements) ? (properties.$elements as CapturedElement[]) : [];
  for (const element of elements) {
    const classes = Array.isArray(element.classes) ? element.classes.join(' ') : '';
    const values = [classes, element.attr__class, element.attr__name];
    if (values.some((value) => typeof value === 'string' && PASSWORD.test(value))) return true;
  }
  const chain = properties.$elements_chain;
  if (typeof chain === 'string') {
    // Chain format: `button.btn.toggle-password:attr__class="..."attr__name="..."`.
    if (/(^|[.;])[^;:"]*password/i.test(chain) || /attr__(class|name)="[^"]*password/i.test(chain))
      return true;
  }
  return false;
}

export type AnalyticsConfig = { key: string | undefined; host: string | undefined };

const buildConfig: AnalyticsConfig = {
  key: import.meta.env.VITE_POSTHOG_KEY as string | undefined,
  host: import.meta.env.VITE_POSTHOG_HOST as string | undefined,
};

let client: Promise<PostHog | null> | null = null;

/** Starts analytics once; a no-op without a key or when already started. */
export function initAnalytics(config: AnalyticsConfig = buildConfig): void {
  const { key, host } = config;
  if (!key || client) return;
  client = import('posthog-js')
    .then(({ default: posthog }) => {
      posthog.init(key, {
        api_host: host || 'https://us.i.posthog.com',
        capture_pageview: 'history_change',
        capture_pageleave: true,
        autocapture: { css_selector_allowlist: [AUTOCAPTURE_SELECTOR] },
        capture_dead_clicks: false,
        capture_heatmaps: false,
        capture_exceptions: false,
        rageclick: false,
        disable_session_recording: true,
        disable_surveys: true,
        disable_external_dependency_loading: true,
        advanced_disable_flags: true,
        mask_all_text: false,
        persistence: 'localStorage',
        before_send: (event) => {
          if (!event) return null;
          if (event.event === '$autocapture' && touchesPasswordElement(event.properties)) return null;
          return event;
        },
      });
      return posthog;
    })
    .catch((error: unknown) => {
      console.warn('analytics: could not start', error);
      return null;
    });
}

function withClient(action: (posthog: PostHog) => void): void {
  if (!client) return;
  void client.then((posthog) => {
    if (posthog) action(posthog);
  });
}

function emailDomain(email: string | null | undefined): string | undefined {
  const at = email?.lastIndexOf('@') ?? -1;
  return at >= 0 ? email?.slice(at + 1).toLowerCase() : undefined;
}

/** `user_logged_in` (method, email_domain): never the address itself. */
export function trackLoggedIn(method: string, email: string | null | undefined): void {
  withClient((posthog) => posthog.capture('user_logged_in', { method, email_domain: emailDomain(email) }));
}

/** `login_failed` (reason, email_domain). */
export function trackLoginFailed(reason: string, email: string | null | undefined): void {
  withClient((posthog) => posthog.capture('login_failed', { reason, email_domain: emailDomain(email) }));
}

/** `user_logged_out`, then forgets the person on this device. */
export function trackLoggedOut(): void {
  withClient((posthog) => {
    posthog.capture('user_logged_out');
    posthog.reset();
  });
}

/** Identify by user id (no e-mail, no name). */
export function identifyUser(userId: string): void {
  withClient((posthog) => {
    if (posthog.get_distinct_id() !== userId) posthog.identify(userId);
  });
}

/** Group events by the current organization. */
export function groupByOrganization(organizationId: string, name?: string): void {
  withClient((posthog) => posthog.group('organization', organizationId, name ? { name } : undefined));
}

/** For tests: forget the started client. */
export function resetAnalyticsForTests(): void {
  client = null;
}
