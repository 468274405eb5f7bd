import type { ReactNode } from "react";

/** A titled card on the Settings page. */
export function SettingsSection({ id, title, description, children }: { id: string; title: string; description: string; children: ReactNode }) {
  return (
    <section className="settings-section" aria-labelledby={`${id}-heading`} data-testid={`settings-${id}`}>
      <div className="settings-section__head">
        <h2 id={`${id}-heading`}>{title}</h2>
        <p className="muted">{description}</p>
      </div>
      {children}
    </section>
  );
}
