import { QueryClient } from "@tanstack/react-query";
import { ApiRequestError } from "./api";

/**
 * The app's one QueryClient factory. Live updates arrive over the WebSocket and are written into
 * this cache, so data is treated as fresh until the socket says otherwise (no focus refetches, no
 * polling); a reconnect invalidates everything instead.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
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
