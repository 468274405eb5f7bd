import type { DesktopPermission } from "./plan";

// The browser's Notification API, thinly wrapped (it is absent in some browsers and insecure origins).

export function desktopPermission(): DesktopPermission {
  if (typeof window === "undefined" || typeof window.Notification === "undefined") return "unsupported";
  return window.Notification.permission;
}

export async function requestDesktopPermission(): Promise<DesktopPermission> {
  if (desktopPermission() === "unsupported") return "unsupported";
  try {
    return await window.Notification.requestPermission();
  } catch {
    return desktopPermission();
  }
}

/** Shows one desktop notification; `tag` replaces an earlier one with the same tag. */
export function showDesktop(options: { title: string; body: string; tag: string; onClick: () => void }): void {
  if (desktopPermission() !== "granted") return;
  try {
    const n = new window.Notification(options.title, { body: options.body, tag: options.tag });
    n.onclick = () => {
      window.focus();
      options.onClick();
      n.close();
    };
  } catch {
    // Some platforms only allow notifications from a service worker; the toast still shows.
  }
}
