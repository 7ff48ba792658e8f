import { createContext, useContext, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/**
 * Where a page's header buttons go when a layout draws the header (the
 * course screens share one header above their pages). `undefined`: no
 * layout, the buttons render in place; `null`: the layout's header is not
 * mounted yet.
 */
const HeaderActionsTarget = createContext<HTMLElement | null | undefined>(undefined);

export type HeaderActionsProviderProps = { target: HTMLElement | null; children: ReactNode };

/** Given by a layout whose header has room for the page's buttons (export...). */
export function HeaderActionsProvider({ target, children }: HeaderActionsProviderProps) {
  return <HeaderActionsTarget value={target}>{children}</HeaderActionsTarget>;
}

export type HeaderActionsProps = { children: ReactNode };

/**
 * A page's header buttons: in the header of the layout around the page, or
 * in place when there is none.
 */
export function HeaderActions({ children }: HeaderActionsProps) {
  const target = useContext(HeaderActionsTarget);
  if (target === undefined) return <div className="flex flex-wrap justify-end gap-2">{children}</div>;
  if (target === null) return null;
  return createPortal(children, target);
}
