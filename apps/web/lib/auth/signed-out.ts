/**
 * "A request was answered 401": set by the query client's one error hook, read by the auth gate.
 * A tiny external store (useSyncExternalStore), so the query client can be made before React runs.
 */
export class SignedOutSignal {
  private value = false;
  private readonly listeners = new Set<() => void>();

  get = (): boolean => this.value;

  set(value: boolean): void {
    if (this.value === value) return;
    this.value = value;
    for (const l of this.listeners) l();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}
