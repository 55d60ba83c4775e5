"use client";

import { useRouter } from "next/navigation";
import { useToastingActionState } from "@/components/toaster";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { TextField } from "@/components/ui/text-field";
import { beginEnrolment, confirmEnrolment } from "./actions";

/** Enrolment: a QR code (rendered on the server, no image fetched) and its key, a code to confirm, then the recovery codes, once. */
export function TwoFactorSetup() {
  const [started, start, starting] = useToastingActionState(beginEnrolment, {}, { toast: false });
  const [confirmed, confirm, confirming] = useToastingActionState(confirmEnrolment, {}, { toast: false });
  const router = useRouter();
  if (confirmed.recoveryCodes)
    return (
      <div className="space-y-3">
        <Alert tone="success">Two-factor sign-in is on.</Alert>
        <p className="text-sm">
          Save these recovery codes somewhere safe. Each signs you in once if you lose your phone.{" "}
          <strong>They are not shown again.</strong>
        </p>
        <ul aria-label="Recovery codes" className="grid max-w-sm grid-cols-2 gap-1 font-mono text-sm">
          {confirmed.recoveryCodes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
        <div className="flex gap-2">
          <CopyButton value={confirmed.recoveryCodes.join("\n")} label="Copy codes" />
          <Button onClick={() => router.refresh()}>I have saved them</Button>
        </div>
      </div>
    );
  if (!started.qrSvg)
    return (
      <form action={start} className="space-y-2">
        {started.message ? <Alert>{started.message}</Alert> : null}
        <Button type="submit" disabled={starting}>
          Set up two-factor sign-in
        </Button>
      </form>
    );
  return (
    <div className="space-y-3">
      <p className="text-sm">
        Scan this code with an authenticator app (1Password, Google Authenticator, Authy…), or type the key
        in.
      </p>
      <div
        role="img"
        aria-label="QR code for your authenticator app"
        className="w-44 rounded bg-white p-1"
        // Our own SVG, rendered on the server by the qrcode package from the otpauth:// URI.
        dangerouslySetInnerHTML={{ __html: started.qrSvg }}
      />
      <p className="text-sm">
        Key:{" "}
        <code className="break-all font-mono" data-testid="totp-key">
          {started.secret}
        </code>
      </p>
      <form action={confirm} className="space-y-2">
        {confirmed.message ? <Alert>{confirmed.message}</Alert> : null}
        <div className="flex flex-wrap items-end gap-2">
          <div className="w-48">
            <TextField
              label="Code from the app"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
            />
          </div>
          <Button type="submit" disabled={confirming}>
            Turn on
          </Button>
        </div>
      </form>
    </div>
  );
}
