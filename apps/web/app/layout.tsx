import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { AppHeader } from "../components/AppHeader";
import { Providers } from "../components/Providers";
import { serverT } from "../lib/i18n-server";
import { DEFAULT_LANGUAGE } from "../lib/language";
import "./globals.css";
import "./board.css";
import "./task.css";

export function generateMetadata(): Metadata {
  const t = serverT(DEFAULT_LANGUAGE);
  return {
    title: { default: t("common.appName"), template: `%s · ${t("common.appName")}` },
    description: t("common.tagline"),
  };
}

export const viewport: Viewport = {
  colorScheme: "light dark",
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#f7f7f5" },
    { media: "(prefers-color-scheme: dark)", color: "#141416" },
  ],
};

export default function RootLayout({ children }: { children: ReactNode }) {
  // One language for now; it is decided here, on the server, so both renders agree.
  const lang = DEFAULT_LANGUAGE;
  return (
    <html lang={lang}>
      <body>
        <Providers lang={lang}>
          <AppHeader />
          <main id="main" className="main">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
