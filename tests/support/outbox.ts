// The mails a test server kept (MAIL_OUTBOX_DIR: lib/platform/mailer.ts writes each as an .eml file there).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The mails kept in `directory` for `to`, headers and body as text (none when the folder is not there yet). */
export function mailsTo(directory: string, to: string): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(directory);
  } catch {
    return [];
  }
  return names
    .map((name) => readFileSync(path.join(directory, name), "utf8"))
    .filter((mail) => mail.includes(`To: ${to}`));
}
