"use client";
import { useEffect, useState, type ReactNode } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { I18nextProvider } from "react-i18next";
import { SignedOutSignal } from "../lib/auth/signed-out";
import { createI18n } from "../lib/i18n";
import type { Language } from "../lib/language";
import { createQueryClient } from "../lib/query-client";
import { AuthGate } from "./auth/AuthGate";
import { LiveProvider } from "./LiveProvider";
import { NotificationCenter } from "./NotificationCenter";

/** Everything client-side hangs off these: copy, the query cache, sign-in and the live connection. */
export function Providers({ lang, children }: { lang: Language; children: ReactNode }) {
  const [i18n] = useState(() => createI18n(lang));
  // Set by a 401 from any request (or a refused /ws upgrade); the auth gate then shows the login form.
  const [signedOut] = useState(() => new SignedOutSignal());
  const [queryClient] = useState(() => createQueryClient({ onUnauthorized: () => signedOut.set(true) }));
  // The server decides the language; after a switch it renders the new one and we follow.
  useEffect(() => {
    if (i18n.language !== lang) void i18n.changeLanguage(lang);
  }, [i18n, lang]);
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <AuthGate signedOut={signedOut}>
          <LiveProvider onSignedOut={() => signedOut.set(true)}>
            {children}
            <NotificationCenter />
          </LiveProvider>
        </AuthGate>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
