import { SelectField } from "./ui/select-field";

/** The currencies a form offers (lib/money/currencies.ts's list, passed from the server page). */
export type CurrencyChoices = { codes: readonly string[]; defaultCurrency: string };

/**
 * A form's currency: every accepted ISO 4217 code, the merchant's default chosen. Codes only, no names: a
 * name from Intl could differ between the server's ICU and the browser's and break hydration.
 */
export function CurrencySelect({
  choices,
  value,
  errors,
}: {
  choices: CurrencyChoices;
  /** The value the form was sent with, when it comes back refused. */
  value?: string;
  errors?: string[];
}) {
  return (
    <SelectField
      label="Currency"
      name="currency"
      defaultValue={value || choices.defaultCurrency}
      errors={errors}
      options={choices.codes.map((code) => ({ value: code, label: code }))}
    />
  );
}
