"use client";

import { useEffect, useRef, useSyncExternalStore } from "react";
import { createPortal } from "react-dom";

const subscribeToNothing = () => () => {};

/**
 * A modal built on <dialog>: focus trapping, Escape to close and the dialog role come from the browser; a
 * click on the backdrop closes it too. It is rendered at the end of <body>, so opening it never scrolls a
 * table it was opened from.
 */
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
  const inBrowser = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open, inBrowser]);
  if (!inBrowser) return null;
  return createPortal(
    <dialog
      ref={ref}
      aria-label={title}
      onClose={onClose}
      // The backdrop is part of the <dialog> element: a click whose target is the element itself landed outside the panel.
      onClick={(event) => {
        if (event.target === event.currentTarget) event.currentTarget.close();
      }}
      className="m-auto w-full max-w-md rounded-xl bg-white p-0 text-zinc-900 shadow-xl ring-1 ring-zinc-200 backdrop:bg-zinc-950/50 dark:bg-zinc-900 dark:text-zinc-100 dark:ring-zinc-800"
    >
      <div className="p-6">
        <h2 className="mb-4 text-lg font-semibold">{title}</h2>
        {open ? children : null}
      </div>
    </dialog>,
    document.body,
  );
}
