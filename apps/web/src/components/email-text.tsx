import { Fragment, type ReactNode } from 'react';

import { cn } from '@/lib/cn';

/** "ada.lovelace@example.com" → ["ada", ".lovelace"] and ["example", ".com"]: pieces that start at a dot. */
function splitBeforeDots(text: string): string[] {
  return text.split(/(?=\.)/).filter(Boolean);
}

function withBreaks(pieces: readonly string[]): ReactNode[] {
  return pieces.map((piece, index) => (
    <Fragment key={index}>
      {index > 0 ? <wbr /> : null}
      {piece}
    </Fragment>
  ));
}

export type EmailTextProps = { email: string; className?: string };

/**
 * An e-mail address that wraps where a reader expects it to on a narrow
 * screen: after the "@" and before a dot, and only when it must; a piece
 * longer than the line breaks anywhere rather than pushing the page sideways.
 * The whole address stays in the tooltip.
 */
export function EmailText({ email, className }: EmailTextProps) {
  const at = email.lastIndexOf('@');
  const local = at === -1 ? email : email.slice(0, at);
  const domain = at === -1 ? '' : email.slice(at + 1);
  return (
    <span className={cn('wrap-anywhere', className)} title={email}>
      {withBreaks(splitBeforeDots(local))}
      {at === -1 ? null : (
        <>
          @<wbr />
          {withBreaks(splitBeforeDots(domain))}
        </>
      )}
    </span>
  );
}
