import Form from "next/form";
import { buttonClassName } from "@/components/ui/button";
import { DayField } from "@/components/ui/day-field";
import { SelectField } from "@/components/ui/select-field";
import type { ReportChoice } from "@/lib/ledger/report-period";
import type { FieldErrors } from "@/lib/platform/errors";

const monthName = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString("en-US", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });

/**
 * Two GET forms, each unambiguous: a month, or two days of the report's time zone (both included). Each keeps the chosen currency;
 * both work without JavaScript, and next/form navigates without a reload where it runs.
 */
export function PeriodForms({
  path,
  choice,
  months,
  errors,
  timeZone,
}: {
  /** The zone the days are in, named in the date fields' labels. */
  timeZone: string;
  /** The report page the forms show: the summary's or the reconciliation's. */
  path: string;
  choice: ReportChoice;
  /** The month select's choices, newest first. */
  months: string[];
  errors: FieldErrors;
}) {
  const byDates = choice.firstDay !== undefined;
  const monthChoices = months.includes(choice.month) ? months : [choice.month, ...months];
  return (
    <div className="grid gap-4 md:grid-cols-[1fr_1.6fr]">
      <Form
        action={path}
        aria-label="Report of a month"
        className="flex items-end gap-2 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800"
      >
        <input type="hidden" name="currency" value={choice.currency} />
        <div className="grow">
          <SelectField
            label="Month"
            name="month"
            defaultValue={byDates ? undefined : choice.month}
            errors={errors.month}
            options={monthChoices.map((month) => ({ value: month, label: monthName(month) }))}
          />
        </div>
        <button type="submit" className={buttonClassName("secondary")}>
          Show month
        </button>
      </Form>
      <Form
        action={path}
        aria-label="Report of two dates"
        className="grid grid-cols-2 items-end gap-2 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 sm:grid-cols-[1fr_1fr_auto] dark:bg-zinc-900 dark:ring-zinc-800"
      >
        <input type="hidden" name="currency" value={choice.currency} />
        <DayField label={`From (${timeZone})`} name="from" value={choice.firstDay} errors={errors.from} />
        <DayField label={`To (${timeZone}, included)`} name="to" value={choice.lastDay} errors={errors.to} />
        <button type="submit" className={`${buttonClassName("secondary")} col-span-2 sm:col-span-1`}>
          Show dates
        </button>
      </Form>
    </div>
  );
}
