"use client";
import Link from "next/link";
import { useTranslation } from "react-i18next";
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
      <WsStatusBadge />
    </header>
  );
}
