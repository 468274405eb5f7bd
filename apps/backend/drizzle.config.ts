// drizzle-kit configuration. `npm run db:generate` (repo root) writes migrations into the root
// drizzle/ folder; the backend applies them at startup (src/db/client.ts). Never `push`.
import path from "node:path";
import { defineConfig } from "drizzle-kit";

// drizzle-kit resolves paths against the working directory; anchor them to this file instead so the
// command works from the repo root and from apps/backend alike.
const here = path.dirname(new URL(import.meta.url).pathname);

export default defineConfig({
  dialect: "sqlite",
  schema: path.relative(process.cwd(), path.join(here, "src/db/schema.ts")),
  out: path.relative(process.cwd(), path.join(here, "../../drizzle")),
  strict: true,
  verbose: true,
});
