import "server-only";
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
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

/** The message as an .eml file in MAIL_OUTBOX_DIR (development, tests): read there, never sent anywhere. */
async function keepInOutbox(
  directory: string,
  message: { from: string; to: string; subject: string; text: string },
) {
  await mkdir(directory, { recursive: true });
  const name = `${new Date().toISOString().replaceAll(":", "-")}-${randomBytes(4).toString("hex")}.eml`;
  const headers = [
    `From: ${message.from}`,
    `To: ${message.to}`,
    `Subject: ${message.subject}`,
    `Date: ${new Date().toUTCString()}`,
  ];
  await writeFile(path.join(directory, name), `${headers.join("\r\n")}\r\n\r\n${message.text}`);
}

/**
 * Sends a plain-text mail; false when mail is off or the server refused it (logged, without the body). With
 * MAIL_OUTBOX_DIR a copy is kept there as well, whether or not SMTP is set.
 */
export async function sendMail(message: { to: string; subject: string; text: string }): Promise<boolean> {
  const { SMTP_URL, MAIL_FROM, MAIL_OUTBOX_DIR } = getEnv();
  if (MAIL_OUTBOX_DIR) {
    await keepInOutbox(MAIL_OUTBOX_DIR, { from: MAIL_FROM, ...message }).catch((error: unknown) =>
      logger.warn({ err: { message: (error as Error).message } }, "Mail not kept in the outbox"),
    );
  }
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
