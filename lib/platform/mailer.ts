import "server-only";
import nodemailer from "nodemailer";
import { getEnv } from "./env";
import { logger } from "./logger";

/**
 * Mail, when `SMTP_URL` is set (`smtp://user:pass@host:587`, or `smtps://…`), through nodemailer. Without it
 * nothing is sent and the dashboard or CLI shows the link to pass on: no mail server is needed to run.
 */
let transport: nodemailer.Transporter | undefined;

export function mailConfigured(): boolean {
  return Boolean(getEnv().SMTP_URL);
}

/** Sends a plain-text mail; false when mail is off or the server refused it (logged, without the body). */
export async function sendMail(message: { to: string; subject: string; text: string }): Promise<boolean> {
  const { SMTP_URL, MAIL_FROM } = getEnv();
  if (!SMTP_URL) return false;
  transport ??= nodemailer.createTransport(SMTP_URL);
  try {
    await transport.sendMail({ from: MAIL_FROM, ...message });
    return true;
  } catch (error) {
    logger.warn({ err: { message: (error as Error).message }, to: message.to }, "Mail not sent");
    return false;
  }
}
