import { ActionForm } from "@/components/action-form";
import { ConfirmActionButton } from "@/components/confirm-action-button";
import { buttonClassName } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { StatusBadge } from "@/components/ui/status-badge";
import type { PaymentLinkResource } from "@/lib/checkout/payment-links";
import { setLinkActive } from "./actions";

/** The link's URL, to copy or to open as a payer would (opening it makes no payment). */
export function LinkUrl({ link }: { link: PaymentLinkResource }) {
  return (
    <div className="space-y-2">
      <p className="break-all font-mono text-xs text-zinc-700 dark:text-zinc-300">{link.url}</p>
      <div className="flex flex-wrap gap-2">
        <CopyButton
          value={link.url}
          label={
            <>
              Copy<span className="sr-only"> link to {link.name}</span>
            </>
          }
        />
        <a href={link.url} target="_blank" rel="noopener noreferrer" className={buttonClassName("secondary")}>
          Open<span className="sr-only"> {link.name} in a new tab</span>
        </a>
      </div>
    </div>
  );
}

/** Deactivating asks first: payers who open the link are then turned away. Activating does not. */
export function LinkToggle({ link }: { link: PaymentLinkResource }) {
  if (!link.active)
    return (
      <ActionForm
        action={setLinkActive}
        fields={{ link_id: link.id, active: "true" }}
        submitLabel="Activate"
      />
    );
  return (
    <ConfirmActionButton
      action={setLinkActive}
      fields={{ link_id: link.id, active: "false" }}
      label="Deactivate"
      title={`Deactivate “${link.name}”?`}
      description="Payers who open it will be told it is no longer active, and it takes no payments. Payments already made stay as they are. You can activate it again."
      confirmLabel="Deactivate"
      variant="secondary"
    />
  );
}

export function LinkStatus({ link }: { link: PaymentLinkResource }) {
  return (
    <StatusBadge tone={link.active ? "green" : "gray"}>{link.active ? "active" : "inactive"}</StatusBadge>
  );
}
