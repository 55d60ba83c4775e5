"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useSyncExternalStore, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/text-field";
import type { PaymentMethod } from "@/db/schema";
import { cardLabel, CHECKOUT_MESSAGES } from "@/lib/checkout/test-cards";

/** What the attempts and authentication endpoints answer (app/(payer)/checkout-answer.ts). */
type Answer = {
  status?: "completed" | "failed" | "requires_authentication";
  redirect_url?: string | null;
  /** A link's first card made its payment: the payer goes on to its page. */
  checkout_path?: string;
  /** The address has too many refused cards: when it may try again. */
  retry_at?: string;
  message?: string;
  errors?: Record<string, string[]>;
};

/**
 * Words for a refusal the page was sent back with when the browser ran no script (`?error=`). A refused
 * address is not among them: the page reads when it may try again itself (`retryAt`).
 */
const REFUSALS: Record<string, string> = {
  invalid: "Check the card details and try again.",
  locked: CHECKOUT_MESSAGES.locked,
};

const subscribeToNothing = () => () => {};

/** "14:32" in the payer's own zone; the server, which does not know it, renders UTC. */
function RetryTime({ value }: { value: string }) {
  const inBrowser = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  const date = new Date(value);
  const time = inBrowser
    ? date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })
    : `${date.toISOString().slice(11, 16)} UTC`;
  return <time dateTime={value}>{time}</time>;
}

/** Pay stays off until the address may try again, then comes back by itself. */
function useRetryAt(initial: string | null) {
  const [retryAt, setRetryAt] = useState(initial);
  useEffect(() => {
    if (!retryAt) return;
    const timer = setTimeout(() => setRetryAt(null), Math.max(0, Date.parse(retryAt) - Date.now()));
    return () => clearTimeout(timer);
  }, [retryAt]);
  return [retryAt, setRetryAt] as const;
}

/**
 * The card form, posted to `{path}/attempts` (`/pay/{token}`, or `/l/{slug}` before the link made a payment;
 * a plain form post works without script; with it, errors show inline and focus moves to the first field in
 * error), and the authentication step when the card asks for one.
 */
export function CheckoutForm({
  path,
  amount,
  authentication,
  locked,
  retryAt: refusedUntil,
  refusal,
  fieldErrors = {},
}: {
  path: string;
  amount: string;
  authentication: PaymentMethod | null;
  locked: boolean;
  /** Until when (ISO) the payer's address is refused for its refused cards; null when it is not. */
  retryAt: string | null;
  refusal?: string;
  /** Errors a form posted without script was sent back with. */
  fieldErrors?: Record<string, string[]>;
}) {
  const router = useRouter();
  const form = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>(fieldErrors);
  const firstInvalid = Object.keys(fieldErrors)[0];
  const [message, setMessage] = useState<string | null>(
    locked ? CHECKOUT_MESSAGES.locked : refusal ? (REFUSALS[refusal] ?? null) : null,
  );
  const [busy, setBusy] = useState(false);
  const [retryAt, setRetryAt] = useRetryAt(refusedUntil);

  async function send(endpoint: string, body: URLSearchParams): Promise<void> {
    setBusy(true);
    try {
      const response = await fetch(`${path}/${endpoint}`, {
        method: "POST",
        headers: { Accept: "application/json" },
        body,
      });
      const answer = (await response.json().catch(() => ({}))) as Answer;
      if (answer.redirect_url) return window.location.assign(answer.redirect_url);
      if (answer.checkout_path) return window.location.assign(answer.checkout_path);
      if (answer.retry_at) {
        setErrors({});
        setMessage(null);
        return setRetryAt(answer.retry_at);
      }
      // The page renders what is stored now: the authentication step, or the outcome.
      if (answer.status) {
        setErrors({});
        setMessage(null);
        return router.refresh();
      }
      setErrors(answer.errors ?? {});
      setMessage(answer.errors ? null : (answer.message ?? "Something went wrong. Try again."));
      const first = Object.keys(answer.errors ?? {})[0];
      if (first) form.current?.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
    } finally {
      setBusy(false);
    }
  }

  function pay(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void send("attempts", new URLSearchParams(new FormData(event.currentTarget) as never));
  }

  if (authentication)
    return (
      <section aria-labelledby="authentication-heading" className="space-y-4">
        <h2 id="authentication-heading" className="text-lg font-semibold">
          Authenticate this payment
        </h2>
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          Your bank asks you to confirm {amount} with {cardLabel(authentication)}. This is a test
          authentication: choose how it ends.
        </p>
        {message ? <Alert>{message}</Alert> : null}
        <form
          method="post"
          action={`${path}/authentication`}
          className="flex flex-col gap-3 sm:flex-row"
          onSubmit={(event) => {
            event.preventDefault();
            const submitter = event.nativeEvent.submitter as HTMLButtonElement | null;
            void send("authentication", new URLSearchParams({ result: submitter?.value ?? "" }));
          }}
        >
          <Button type="submit" name="result" value="complete" disabled={busy} className="flex-1">
            Complete authentication
          </Button>
          <Button
            type="submit"
            name="result"
            value="fail"
            variant="secondary"
            disabled={busy}
            className="flex-1"
          >
            Fail authentication
          </Button>
        </form>
      </section>
    );

  return (
    <form
      ref={form}
      method="post"
      action={`${path}/attempts`}
      onSubmit={pay}
      noValidate
      // Errors are announced as they appear beside their fields (and focus moves to the first).
      aria-live="polite"
      className="space-y-4"
    >
      {retryAt ? (
        <Alert>
          {CHECKOUT_MESSAGES.locked} Try again at <RetryTime value={retryAt} />.
        </Alert>
      ) : message ? (
        <Alert>{message}</Alert>
      ) : null}
      <TextField
        label="Card number"
        name="card_number"
        autoFocus={firstInvalid === "card_number"}
        autoComplete="cc-number"
        inputMode="numeric"
        placeholder="4242 4242 4242 4242"
        errors={errors.card_number}
        required
      />
      <div className="grid grid-cols-2 gap-4">
        <TextField
          label="Expiration"
          name="expiry"
          autoFocus={firstInvalid === "expiry"}
          autoComplete="cc-exp"
          inputMode="numeric"
          placeholder="MM / YY"
          hint="MM / YY"
          errors={errors.expiry}
          required
        />
        <TextField
          label="CVC"
          name="cvc"
          autoFocus={firstInvalid === "cvc"}
          autoComplete="cc-csc"
          inputMode="numeric"
          placeholder="123"
          maxLength={4}
          errors={errors.cvc}
          required
        />
      </div>
      <TextField
        label="Name on card"
        name="name"
        autoFocus={firstInvalid === "name"}
        autoComplete="cc-name"
        errors={errors.name}
        required
      />
      <Button type="submit" disabled={busy || locked || retryAt !== null} aria-busy={busy} className="w-full">
        Pay {amount}
      </Button>
    </form>
  );
}
