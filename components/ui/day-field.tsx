import { TextField } from "./text-field";

/**
 * A UTC day typed as `YYYY-MM-DD` (the All transactions and Reports filters). Text, not `type="date"`: that
 * shows the browser's locale (11/25/2026) while the URL and the page say 2026-11-25, and the days are UTC.
 */
export function DayField({
  label,
  name,
  value,
  errors,
}: {
  label: string;
  name: string;
  value?: string;
  errors?: string[];
}) {
  return (
    <TextField
      label={label}
      name={name}
      inputMode="numeric"
      autoComplete="off"
      placeholder="YYYY-MM-DD"
      maxLength={10}
      defaultValue={value ?? ""}
      errors={errors}
    />
  );
}
