"use client";

/**
 * Applies a GET form's select as soon as it changes, as the Payments filters do; the form's own button stays
 * for keyboards and for browsers without JavaScript.
 */
export function SubmitOnChange({ children, className }: { children: React.ReactNode; className?: string }) {
  return (
    <div
      className={className}
      onChange={(event) => {
        if (event.target instanceof HTMLSelectElement) event.target.form?.requestSubmit();
      }}
    >
      {children}
    </div>
  );
}
