import { useId } from "react";

const textareaClass =
  "block w-full rounded-md border-0 bg-white px-3 py-2 font-mono text-xs text-zinc-900 shadow-sm ring-1 ring-inset ring-zinc-300 placeholder:text-zinc-500 focus:ring-2 focus:ring-inset focus:ring-indigo-600 aria-[invalid]:ring-red-500 dark:bg-zinc-900 dark:text-zinc-100 dark:ring-zinc-700 dark:placeholder:text-zinc-400";

/** A labelled textarea with its hint, or its errors, tied to it (monospace: pasted headers and bodies). */
export function TextArea({
  label,
  hint,
  errors,
  ...props
}: React.TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  hint: string;
  errors?: string[];
  name: string;
}) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <textarea
        id={id}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={`${id}-note`}
        spellCheck={false}
        className={textareaClass}
        {...props}
      />
      <p
        id={`${id}-note`}
        className={
          errors?.length
            ? "text-sm text-red-600 dark:text-red-400"
            : "text-xs text-zinc-600 dark:text-zinc-400"
        }
      >
        {errors?.length ? errors.join(" ") : hint}
      </p>
    </div>
  );
}
