import { fileURLToPath } from "node:url";

// The repo root: the app lives in an npm-workspaces monorepo, so Turbopack and output tracing must
// see the hoisted node_modules and the sibling @kandev/protocol package.
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/** @type {import("next").NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  turbopack: { root: repoRoot },
  outputFileTracingRoot: repoRoot,
};

export default nextConfig;
