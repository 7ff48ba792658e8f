import nodemailer, { type Transporter } from 'nodemailer';
import type { AppConfig, WebhookAllowedHost } from '../../config';
import type { Publish } from '../../jobs/job-runner';
import type { HostLookup } from './address-guard';
import { createSecretBox, type SecretBox } from './secret-box';

export type ActionMail = { to: string[]; subject: string; text: string };
export type SentMail = { accepted: string[]; rejected: string[]; response: string; messageId: string };
/** Sends one e-mail; throws when the SMTP server refuses it or cannot be reached. */
export type ActionMailer = (mail: ActionMail) => Promise<SentMail>;

/**
 * What running an action needs besides the database: the key for its
 * secrets, the webhook address rules, and the SMTP transport (null when
 * SMTP_URL is not set). Built once per process.
 */
export type ActionsRuntime = {
  secretBox: SecretBox;
  allowedHosts: readonly WebhookAllowedHost[];
  /** Resolves host names for webhooks (the system resolver unless a test injects one). */
  lookup?: HostLookup;
  mailer: ActionMailer | null;
  /** The SMTP server as shown in a test result: scheme, host and port, never the password. */
  smtpDisplay: string | null;
  from: string | null;
  /** Where `learning-events.accepted` goes when an action writes learning data (absent: nobody listens). */
  publish?: Publish;
};

function addressesOf(list: ReadonlyArray<string | { address: string }> | undefined): string[] {
  return (list ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.address));
}

/** The SMTP server without credentials, e.g. `smtp://mail.example.com:587`. */
export function smtpDisplayOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'smtp';
  }
}

/**
 * E-mail goes through the same SMTP server (SMTP_URL, SMTP_FROM) as the
 * team invitations, with nodemailer; `transport` replaces it in tests (a
 * nodemailer JSON transport, say).
 */
export function createActionMailer(
  smtp: { url: string; from: string },
  transport: Transporter = nodemailer.createTransport(smtp.url),
): ActionMailer {
  return async (mail) => {
    const info = (await transport.sendMail({
      from: smtp.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
    })) as {
      accepted?: (string | { address: string })[];
      rejected?: (string | { address: string })[];
      envelope?: { to?: string[] };
      response?: string;
      messageId?: string;
    };
    return {
      // Transports other than SMTP (a JSON or stream transport) report no acceptance: all went out.
      accepted: addressesOf(info.accepted ?? info.envelope?.to ?? mail.to),
      rejected: addressesOf(info.rejected),
      response: typeof info.response === 'string' ? info.response : '',
      messageId: info.messageId ?? '',
    };
  };
}

export function createActionsRuntime(input: {
  authSecret: string;
  config: Pick<AppConfig, 'smtp' | 'webhookAllowedHosts'>;
  publish?: Publish;
  mailer?: ActionMailer | null;
  lookup?: HostLookup;
}): ActionsRuntime {
  const { smtp } = input.config;
  return {
    secretBox: createSecretBox(input.authSecret),
    allowedHosts: input.config.webhookAllowedHosts,
    ...(input.lookup ? { lookup: input.lookup } : {}),
    mailer: input.mailer !== undefined ? input.mailer : smtp ? createActionMailer(smtp) : null,
    smtpDisplay: smtp ? smtpDisplayOf(smtp.url) : null,
    from: smtp?.from ?? null,
    ...(input.publish ? { publish: input.publish } : {}),
  };
}
