import type { ReactNode } from "react";
import "./globals.css";

export const metadata = {
  title: "Better Compute — join requests",
  description: "Approve or reject machines waiting to join your compute pools.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
