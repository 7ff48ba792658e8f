import { slugifySubdomain } from '@courselens/contracts';
import type { ComponentPropsWithRef } from 'react';

import { TextField } from '@/components/ui/text-field';

export type SubdomainFieldProps = Omit<ComponentPropsWithRef<'input'>, 'placeholder'> & {
  /** The organization name typed so far: the subdomain derived from it is the suggestion. */
  organizationName: string | undefined;
  error?: string;
};

/**
 * The optional subdomain of a new organization (sign-up, create organization):
 * left empty, the server derives it from the name exactly as the hint shows.
 */
export function SubdomainField({ organizationName, error, ...inputProps }: SubdomainFieldProps) {
  const suggested = slugifySubdomain(organizationName ?? '');
  return (
    <TextField
      label="Subdomain"
      labelAside="Optional"
      autoComplete="off"
      autoCapitalize="none"
      spellCheck={false}
      // Only a subdomain derived from what was typed: never a made-up example.
      placeholder={suggested || undefined}
      hint={
        suggested
          ? `Leave empty to use “${suggested}” (or a free variant of it).`
          : 'Leave empty to derive it from the organization name.'
      }
      error={error}
      {...inputProps}
    />
  );
}
