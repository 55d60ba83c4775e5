"use client";

import { useState } from "react";
import { Button } from "./button";

/** `label` may carry screen-reader-only words ("Copy<sr-only> List payments</sr-only>") to keep the button short. */
export function CopyButton({ value, label = "Copy" }: { value: string; label?: React.ReactNode }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant="secondary"
      onClick={() => {
        void navigator.clipboard.writeText(value).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        });
      }}
    >
      <span aria-live="polite">{copied ? "Copied" : label}</span>
    </Button>
  );
}
