import { useEffect } from 'react';

/** What the chat page posts to the page that framed it; public/chat-bubble.js listens for it. */
export const CHAT_CLOSE_MESSAGE = 'courselens-chat:close';

/**
 * In the chat bubble's frame, Escape pressed inside the chat never reaches the
 * course page, so the page forwards it: the bubble then closes its panel, as
 * Escape does on the course page itself. The message carries nothing but its
 * type, so any parent may receive it.
 */
export function useCloseOnEscapeInFrame(isEmbedded: boolean): void {
  useEffect(() => {
    if (!isEmbedded || window.parent === window) return;
    const handleKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        window.parent.postMessage({ type: CHAT_CLOSE_MESSAGE }, '*');
      }
    };
    window.addEventListener('keydown', handleKeyDown);
    return () => window.removeEventListener('keydown', handleKeyDown);
  }, [isEmbedded]);
}
