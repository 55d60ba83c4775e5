import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Payments", template: "%s · Payments" },
  description: "Merchant dashboard for the payments platform",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
