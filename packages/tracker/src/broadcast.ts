import { hashKey } from './queue';

export const BANNER_ID = 'courselens-broadcast';

type BroadcastRequest = {
  fetch: typeof fetch;
  endpoint: string;
  key: string;
  externalCourseId: string;
};

/**
 * GET /api/v1/courses/{externalCourseId}/broadcast: the course's current
 * message, or null when none is set (or the server cannot be reached).
 */
export async function fetchBroadcast(request: BroadcastRequest): Promise<string | null> {
  const url = `${request.endpoint}/api/v1/courses/${encodeURIComponent(request.externalCourseId)}/broadcast`;
  try {
    const response = await request.fetch(url, { headers: { authorization: `Bearer ${request.key}` } });
    if (!response.ok) return null;
    const body = (await response.json()) as { message?: unknown };
    return typeof body.message === 'string' && body.message.trim() ? body.message : null;
  } catch {
    return null;
  }
}

/**
 * Shows the message in a banner at the top of the page: a polite live region
 * (screen readers announce it without stealing focus) with a real button to
 * dismiss it, also closed by Escape. A dismissed message stays dismissed for
 * this course in this browser until the team sets another one.
 */
export function showBanner(
  doc: Document,
  message: string,
  storage: Storage | undefined,
  courseKey: string,
): boolean {
  const dismissedKey = `courselens:dismissed:${hashKey(courseKey)}`;
  const messageKey = hashKey(message);
  if (safeGet(storage, dismissedKey) === messageKey) return false;

  doc.getElementById(BANNER_ID)?.remove();
  const banner = doc.createElement('div');
  banner.id = BANNER_ID;
  banner.setAttribute('role', 'status');
  banner.setAttribute('aria-label', 'Message from your course team');
  banner.style.cssText =
    'position:fixed;top:12px;left:50%;transform:translateX(-50%);z-index:2147483647;box-sizing:border-box;' +
    'width:max-content;max-width:calc(100vw - 24px);display:flex;gap:12px;align-items:flex-start;' +
    'padding:12px 12px 12px 16px;border-radius:8px;background:#1e3a8a;color:#fff;' +
    'font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;box-shadow:0 6px 20px rgba(0,0,0,.3)';

  const text = doc.createElement('p');
  text.style.cssText = 'margin:0;flex:1;white-space:pre-wrap;overflow-wrap:anywhere';
  text.textContent = message; // never HTML: the message is plain text

  const close = doc.createElement('button');
  close.type = 'button';
  close.textContent = '\u00d7';
  close.setAttribute('aria-label', 'Dismiss message');
  close.title = 'Dismiss';
  close.style.cssText =
    'flex:none;min-width:32px;min-height:32px;margin:-4px 0;border:1px solid rgba(255,255,255,.7);' +
    'border-radius:6px;background:transparent;color:#fff;font:20px/1 sans-serif;cursor:pointer';

  const dismiss = () => {
    banner.remove();
    try {
      storage?.setItem(dismissedKey, messageKey);
    } catch {
      // Not remembered; the banner is gone for this page all the same.
    }
  };
  close.addEventListener('click', dismiss);
  banner.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') dismiss();
  });

  banner.append(text, close);
  doc.body.append(banner);
  return true;
}

function safeGet(storage: Storage | undefined, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}
