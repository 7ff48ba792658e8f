import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/**
 * Joins class names and lets a later Tailwind class win over an earlier one
 * of the same kind (`cn('px-4', 'px-2')` → `'px-2'`), so callers can override
 * a primitive's defaults through `className`.
 */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
