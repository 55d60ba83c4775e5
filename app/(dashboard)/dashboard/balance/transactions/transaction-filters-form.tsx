import Form from "next/form";
import { Link } from "@/components/link";
import { buttonClassName } from "@/components/ui/button";
import { DayField } from "@/components/ui/day-field";
import { SelectField } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import { BALANCE_TRANSACTION_TYPES } from "@/db/enums";
import type { TransactionFilters } from "@/lib/ledger/transaction-filters";
import type { FieldErrors } from "@/lib/platform/errors";
import { TYPE_LABELS } from "../balance-transactions-table";

/**
 * A GET form: the filters live in the URL, so a view can be shared and reloaded, and "Download CSV" exports the
 * same query. It works without JavaScript; with it, next/form navigates without a full reload.
 */
export function TransactionFiltersForm({
  filters,
  errors,
  currencies,
  timeZone,
}: {
  /** The merchant's report time zone: the days' zone, named in the date fields. */
  timeZone: string;
  filters: TransactionFilters;
  errors: FieldErrors;
  /** The currencies the merchant has a balance in: the currency filter's choices. */
  currencies: string[];
}) {
  const currencyChoices = [...new Set([...currencies, ...(filters.currency ? [filters.currency] : [])])];
  return (
    <Form
      action="/dashboard/balance/transactions"
      role="search"
      aria-label="Filter balance transactions"
      className="grid grid-cols-2 gap-3 lg:grid-cols-[1.2fr_0.8fr_1fr_1fr_1fr_auto] lg:items-end"
    >
      <SelectField
        label="Type"
        name="type"
        defaultValue={filters.type ?? ""}
        errors={errors.type}
        options={[
          { value: "", label: "All types" },
          ...BALANCE_TRANSACTION_TYPES.map((type) => ({ value: type, label: TYPE_LABELS[type] })),
        ]}
      />
      <SelectField
        label="Currency"
        name="currency"
        defaultValue={filters.currency ?? ""}
        errors={errors.currency}
        options={[
          { value: "", label: "All" },
          ...currencyChoices.map((code) => ({ value: code, label: code })),
        ]}
      />
      <TextField
        label="Payout"
        name="payout"
        inputMode="numeric"
        autoComplete="off"
        placeholder="Payout ID"
        defaultValue={filters.payout ?? ""}
        errors={errors.payout}
      />
      <DayField label={`From (${timeZone})`} name="from" value={filters.from} errors={errors.from} />
      <DayField label={`To (${timeZone})`} name="to" value={filters.to} errors={errors.to} />
      <div className="col-span-2 flex gap-2 lg:col-span-1">
        <button type="submit" className={buttonClassName("primary")}>
          Apply
        </button>
        <Link href="/dashboard/balance/transactions" className={buttonClassName("secondary")}>
          Clear
        </Link>
      </div>
    </Form>
  );
}
