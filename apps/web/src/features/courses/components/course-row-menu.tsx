import type { CourseBody } from '@courselens/contracts';
import { Megaphone, MoreHorizontal, Pencil, Trash2, Users, Variable, ListChecks } from 'lucide-react';
import {
  useEffect,
  useId,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'react-router';

import { paths } from '@/config/paths';
import { useClickOutside } from '@/hooks/use-click-outside';
import { useEscapeKey } from '@/hooks/use-escape-key';
import { cn } from '@/lib/cn';

export type CourseRowMenuProps = {
  course: CourseBody;
  onEdit: (course: CourseBody) => void;
  onDelete: (course: CourseBody) => void;
  /** Why Delete cannot be used (a team member: only owners delete courses); the item stays, disabled, saying so. */
  deleteDisabledReason?: string | null;
};

/** Roughly the menu's height, to open it upwards near the bottom of the window. */
const MENU_HEIGHT = 260;

const itemClassName =
  'flex w-full items-center gap-2.5 rounded-lg px-2.5 py-2 text-left text-sm text-fg hover:bg-surface-muted ' +
  'focus-visible:bg-surface-muted focus-visible:outline-none [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-fg-subtle';

/**
 * The actions of one course (menu button pattern): its learners, variables,
 * questions and broadcasts, edit and delete. Arrow keys move between the
 * items, Escape and a click outside close it.
 */
export function CourseRowMenu({ course, onEdit, onDelete, deleteDisabledReason = null }: CourseRowMenuProps) {
  const [isOpen, setIsOpen] = useState(false);
  const [position, setPosition] = useState<CSSProperties>({});
  const menuId = useId();
  const deleteReasonId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  function close(returnFocus = true) {
    setIsOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }

  useEscapeKey(() => close(), isOpen);
  useClickOutside(
    containerRef,
    (event) => {
      if (event.target instanceof Node && menuRef.current?.contains(event.target)) return;
      close(false);
    },
    isOpen,
  );

  // The menu lives in a portal (a table scrolls sideways and would clip it):
  // it follows the button, so it closes when the page scrolls or resizes.
  useEffect(() => {
    if (!isOpen) return;
    const handleMove = () => setIsOpen(false);
    window.addEventListener('resize', handleMove);
    window.addEventListener('scroll', handleMove, true);
    return () => {
      window.removeEventListener('resize', handleMove);
      window.removeEventListener('scroll', handleMove, true);
    };
  }, [isOpen]);

  function items(): HTMLElement[] {
    return [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  }

  function handleOpen() {
    const rect = buttonRef.current?.getBoundingClientRect();
    if (rect) {
      const right = Math.max(8, window.innerWidth - rect.right);
      const isRoomBelow = rect.bottom + MENU_HEIGHT + 8 <= window.innerHeight;
      setPosition(
        isRoomBelow
          ? { top: rect.bottom + 4, right }
          : { bottom: Math.max(8, window.innerHeight - rect.top + 4), right },
      );
    }
    setIsOpen(true);
    requestAnimationFrame(() => items()[0]?.focus());
  }

  function handleMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const all = items();
    const index = all.indexOf(document.activeElement as HTMLElement);
    const move = (next: number) => {
      event.preventDefault();
      all[(next + all.length) % all.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(all.length - 1);
    else if (event.key === 'Tab') close(false);
  }

  const link = (to: string, icon: ReactNode, label: string) => (
    <Link role="menuitem" tabIndex={-1} to={to} className={itemClassName} onClick={() => close(false)}>
      {icon}
      {label}
    </Link>
  );

  return (
    <div ref={containerRef} className="relative inline-block text-left">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={isOpen ? menuId : undefined}
        aria-label={`Actions for ${course.courseTitle}`}
        onClick={() => (isOpen ? close() : handleOpen())}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !isOpen) {
            event.preventDefault();
            handleOpen();
          }
        }}
        className="inline-flex size-8 items-center justify-center rounded-lg text-fg-muted hover:bg-surface-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-focus [&_svg]:size-4"
      >
        <MoreHorizontal aria-hidden="true" />
      </button>
      {isOpen
        ? createPortal(
            <div
              ref={menuRef}
              style={position}
              id={menuId}
              role="menu"
              tabIndex={-1}
              aria-label={`Actions for ${course.courseTitle}`}
              onKeyDown={handleMenuKeyDown}
              className={cn(
                'fixed z-40 w-52 rounded-xl border border-line bg-surface p-1 shadow-lg shadow-slate-950/10 dark:shadow-black/40',
              )}
            >
              {link(paths.courses.learners.href(course.id), <Users aria-hidden="true" />, 'Learners')}
              {link(paths.courses.variables.href(course.id), <Variable aria-hidden="true" />, 'Variables')}
              {link(paths.courses.questions.href(course.id), <ListChecks aria-hidden="true" />, 'Questions')}
              {link(
                paths.courses.broadcasts.href(course.id, course.courseTitle),
                <Megaphone aria-hidden="true" />,
                'Broadcasts',
              )}
              <div role="separator" className="my-1 h-px bg-line" />
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={itemClassName}
                onClick={() => {
                  close(false);
                  onEdit(course);
                }}
              >
                <Pencil aria-hidden="true" />
                Edit
              </button>
              {deleteDisabledReason ? (
                // Disabled menu items stay focusable (ARIA menu pattern), so the reason can be read.
                <button
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  aria-disabled="true"
                  aria-label="Delete"
                  aria-describedby={deleteReasonId}
                  className={cn(
                    itemClassName,
                    'cursor-not-allowed items-start text-fg-subtle hover:bg-transparent',
                  )}
                >
                  <Trash2 aria-hidden="true" className="mt-0.5" />
                  <span className="flex flex-col">
                    <span>Delete</span>
                    <span id={deleteReasonId} className="text-xs text-fg-muted">
                      {deleteDisabledReason}
                    </span>
                  </span>
                </button>
              ) : (
                <button
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  className={cn(itemClassName, 'text-rose-600 dark:text-rose-400 [&_svg]:text-current')}
                  onClick={() => {
                    close(false);
                    onDelete(course);
                  }}
                >
                  <Trash2 aria-hidden="true" />
                  Delete
                </button>
              )}
            </div>,
            document.body,
          )
        : null}
    </div>
  );
}
