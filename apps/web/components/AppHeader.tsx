"use client";
import Link from "next/link";
import { useTranslation } from "react-i18next";
import { CurrentUser } from "./auth/CurrentUser";
import { LanguageSwitcher } from "./LanguageSwitcher";
import { WsStatusBadge } from "./WsStatusBadge";

export function AppHeader() {
  const { t } = useTranslation();
  return (
    <header className="app-header">
      <a className="skip-link" href="#main">
        {t("common.skipToContent")}
      </a>
      <Link href="/" className="brand">
        <svg className="brand__mark" width="22" height="22" viewBox="0 0 22 22" aria-hidden="true" focusable="false">
          <rect x="1" y="1" width="20" height="20" rx="6" fill="currentColor" />
          <path d="M7 6.5v9M7 11l5.5-4.5M9.2 9.4l4.3 6.1" stroke="var(--surface)" strokeWidth="1.9" strokeLinecap="round" fill="none" />
        </svg>
        <span className="brand__name">{t("common.appName")}</span>
      </Link>
      <nav className="app-nav">
        <Link href="/settings" className="app-nav__link" data-testid="nav-settings">
          <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
            <circle cx="8" cy="8" r="2.2" fill="none" stroke="currentColor" strokeWidth="1.5" />
            <path
              d="M8 1.8v1.6M8 12.6v1.6M14.2 8h-1.6M3.4 8H1.8M12.4 3.6l-1.1 1.1M4.7 11.3l-1.1 1.1M12.4 12.4l-1.1-1.1M4.7 4.7 3.6 3.6"
              stroke="currentColor"
              strokeWidth="1.5"
              strokeLinecap="round"
            />
          </svg>
          <span>{t("common.settings")}</span>
        </Link>
        <LanguageSwitcher />
        <WsStatusBadge />
        <CurrentUser />
      </nav>
    </header>
  );
}
