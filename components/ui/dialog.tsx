"use client";

import { useEffect, useRef } from "react";

/** A modal built on <dialog>: focus trapping, Escape to close and the dialog role come from the browser. */
export function Dialog({
  open,
  onClose,
  title,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: React.ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-label={title}
      onClose={onClose}
      className="m-auto w-full max-w-md rounded-xl bg-white p-6 text-zinc-900 shadow-xl ring-1 ring-zinc-200 backdrop:bg-zinc-950/50 dark:bg-zinc-900 dark:text-zinc-100 dark:ring-zinc-800"
    >
      <h2 className="mb-4 text-lg font-semibold">{title}</h2>
      {open ? children : null}
    </dialog>
  );
}
