import type { CourseBody } from '@courselens/contracts';
import { Megaphone, MoreHorizontal, Pencil, Trash2, Users, Variable, ListChecks } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link } from 'react-router';

import { paths } from '@/config/paths';
import { useClickOutside } from '@/hooks/use-click-outside';
import { useEscapeKey } from '@/hooks/use-escape-key';
import { cn } from '@/lib/cn';

export type CourseRowMenuProps = {
  course: CourseBody;
  onEdit: (course: CourseBody) => void;
  onDelete: (course: CourseBody) => void;
};

const itemClassName =
  'flex w-full items-center gap-2.5 rounded-lg px-2.5 py-2 text-left text-sm text-fg hover:bg-surface-muted ' +
  'focus-visible:bg-surface-muted focus-visible:outline-none [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-fg-subtle';

/**
 * The actions of one course (menu button pattern): its learners, variables,
 * questions and broadcasts, edit and delete. Arrow keys move between the
 * items, Escape and a click outside close it.
 */
export function CourseRowMenu({ course, onEdit, onDelete }: CourseRowMenuProps) {
  const [isOpen, setIsOpen] = useState(false);
  const menuId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  function close(returnFocus = true) {
    setIsOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }

  useEscapeKey(() => close(), isOpen);
  useClickOutside(containerRef, () => close(false), isOpen);

  function items(): HTMLElement[] {
    return [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  }

  function handleOpen() {
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
      {isOpen ? (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          tabIndex={-1}
          aria-label={`Actions for ${course.courseTitle}`}
          onKeyDown={handleMenuKeyDown}
          className={cn(
            'absolute right-0 z-20 mt-1 w-52 rounded-xl border border-line bg-surface p-1 shadow-lg shadow-slate-950/10 dark:shadow-black/40',
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
        </div>
      ) : null}
    </div>
  );
}
