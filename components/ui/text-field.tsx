import { useId, type InputHTMLAttributes } from "react";

/** A labelled input with its error messages tied to it, so screen readers and Playwright find both. */
export function TextField({
  label,
  errors,
  hint,
  ...inputProps
}: InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  errors?: string[];
  hint?: string;
  name: string;
}) {
  const id = useId();
  const describedBy = errors?.length ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy}
        className="block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-zinc-900 shadow-sm ring-1 ring-inset ring-zinc-300 placeholder:text-zinc-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 aria-[invalid]:ring-red-500 dark:bg-zinc-900 dark:text-zinc-100 dark:ring-zinc-700"
        {...inputProps}
      />
      {errors?.length ? (
        <p id={`${id}-error`} className="text-sm text-red-600 dark:text-red-400">
          {errors.join(" ")}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
