import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { ApiRequestError } from "./api";
import { isUnauthorized } from "./auth/auth-view";

/**
 * The app's one QueryClient factory. Live updates arrive over the WebSocket and are written into
 * this cache, so data is treated as fresh until the socket says otherwise (no focus refetches, no
 * polling); a reconnect invalidates everything instead.
 */
export function createQueryClient(options: { onUnauthorized?: () => void } = {}): QueryClient {
  // The one place a 401 turns into "show the login form" (issue 34): any query or mutation.
  const onError = (err: unknown) => {
    if (isUnauthorized(err)) options.onUnauthorized?.();
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    // A mutation that expects a 401 as an answer (a wrong current password) sets `meta.expectsUnauthorized`.
    mutationCache: new MutationCache({ onError: (err, _vars, _ctx, mutation) => (mutation.meta?.expectsUnauthorized ? undefined : onError(err)) }),
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        // A 4xx will not get better by asking again; network trouble might.
        retry: (failures, err) => failures < 3 && !(err instanceof ApiRequestError && err.status >= 400 && err.status < 500),
      },
      mutations: { retry: false },
    },
  });
}
