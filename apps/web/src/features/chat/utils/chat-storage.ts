/**
 * What the chat page remembers in this browser: the learner's e-mail per
 * agent (asked once) and the open conversation per agent and e-mail (so a
 * reload, or the course's next page, resumes it). Storage is often blocked in
 * a frame on another site; the chat then simply forgets between visits.
 */

const PREFIX = 'courselens:chat';

const emailKey = (chatbotId: string) => `${PREFIX}:${chatbotId}:email`;
const sessionKey = (chatbotId: string, email: string) => `${PREFIX}:${chatbotId}:session:${email}`;

function read(key: string): string | null {
  try {
    const value = window.localStorage.getItem(key);
    return value === null || value === '' ? null : value;
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Blocked storage: this visit still works.
  }
}

export function readStoredEmail(chatbotId: string): string | null {
  return read(emailKey(chatbotId));
}

export function storeEmail(chatbotId: string, email: string | null): void {
  write(emailKey(chatbotId), email);
}

export function readStoredSession(chatbotId: string, email: string): string | null {
  return read(sessionKey(chatbotId, email));
}

export function storeSession(chatbotId: string, email: string, sessionId: string | null): void {
  write(sessionKey(chatbotId, email), sessionId);
}
