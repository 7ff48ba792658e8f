import { ORGANIZATION_MESSAGES, SUBDOMAIN_MESSAGES } from '@courselens/contracts';

/** Server answers that belong under the subdomain field rather than in a toast. */
export const subdomainServerMessages: readonly string[] = [
  ...Object.values(SUBDOMAIN_MESSAGES),
  ORGANIZATION_MESSAGES.subdomainTaken,
];
