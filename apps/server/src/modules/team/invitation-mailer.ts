import nodemailer from 'nodemailer';

export type InvitationMail = { to: string; organizationName: string; inviterName: string; link: string };
/** Sends an invitation; resolves false (never throws) when delivery failed, so the link still reaches the owner. */
export type InvitationMailer = (mail: InvitationMail) => Promise<boolean>;

/** Delivery through SMTP_URL (nodemailer); without it, nothing is sent and the owner copies the link. */
export function createInvitationMailer(
  smtp: { url: string; from: string } | undefined,
  onError: (error: unknown) => void,
): InvitationMailer {
  if (!smtp) return async () => false;
  const transport = nodemailer.createTransport(smtp.url);
  return async (mail) => {
    try {
      await transport.sendMail({
        from: smtp.from,
        to: mail.to,
        subject: `${mail.inviterName} invited you to ${mail.organizationName} on CourseLens`,
        text:
          `${mail.inviterName} invited you to join ${mail.organizationName} on CourseLens.\n\n` +
          `Accept the invitation: ${mail.link}\n\nThe link works for 7 days.`,
      });
      return true;
    } catch (error) {
      onError(error);
      return false;
    }
  };
}
