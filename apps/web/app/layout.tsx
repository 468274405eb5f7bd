import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { AppHeader } from "../components/AppHeader";
import { Providers } from "../components/Providers";
import { serverT } from "../lib/i18n-server";
import { requestLanguage } from "../lib/language-server";
import "./globals.css";
import "./board.css";
import "./state-icons.css";
import "./task.css";
import "./clarification.css";
import "./notifications.css";
import "./settings.css";
import "./agent-log.css";
import "./changes.css";
import "./markdown.css";
import "./tool-calls.css";
import "./session.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = serverT(await requestLanguage());
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

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Decided here, on the server (?lang=, then the cookie, then Accept-Language), so both renders agree.
  const lang = await requestLanguage();
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
