import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { AgentPresetSchema, AgentProfileSchema, type AgentPreset, type AgentProfile } from "@kandev/protocol";
import type { APIRequestContext, Page } from "@playwright/test";
import { startBoard, type StartedBoard } from "./board";
import { expect, test } from "./fixtures";
import { expectNotReloaded, markNoReload, saveScreenshot } from "./helpers";

// Which presets are "installed" depends on the machine, so this spec starts its own board on a
// machine it controls: PATH holds only a fake `goose`, and KANDEV_AGENT_DIR a fake local Claude
// bridge. Neither is ever run (nothing here starts a session). Every other preset is missing.
const AVAILABLE: Record<string, boolean> = { "claude-acp-local": true, "claude-acp-npx": false, gemini: false, "codex-acp": false, goose: true };

// Tall enough for the whole picker, so its screenshot is not stitched under the sticky header.
test.use({ viewport: { width: 1280, height: 1800 } });

let board: StartedBoard;
let machine: string;

function fakeExecutable(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, "#!/bin/sh\nexit 3\n", { mode: 0o755 });
}

test.beforeAll(async () => {
  machine = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-e2e-presets-"));
  fakeExecutable(path.join(machine, "bin", "goose"));
  fakeExecutable(path.join(machine, "agents", "node_modules", ".bin", "claude-agent-acp"));
  board = await startBoard({ PATH: path.join(machine, "bin"), KANDEV_AGENT_DIR: path.join(machine, "agents") });
});
test.afterAll(async () => {
  await board?.stop();
  if (machine) fs.rmSync(machine, { recursive: true, force: true });
});

async function presets(request: APIRequestContext): Promise<AgentPreset[]> {
  return AgentPresetSchema.array().parse(await (await request.get(`${board.url}/api/v1/agent-presets`)).json());
}

async function profiles(request: APIRequestContext): Promise<AgentProfile[]> {
  return AgentProfileSchema.array().parse(await (await request.get(`${board.url}/api/v1/agent-profiles`)).json());
}

const form = (page: Page) => page.getByTestId("preset-form");

/** How the picker prints a command: an argument with a space in it is quoted. */
const commandText = (command: string[]) => command.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ");

async function openSettings(page: Page): Promise<void> {
  await page.goto(`${board.url}/settings`);
  await expect(page.getByTestId("preset-form").getByRole("radio")).toHaveCount(Object.keys(AVAILABLE).length);
}

test("Settings presets: every preset shows its command and availability; one is added with its key, by keyboard", async ({ page }) => {
  const catalog = await presets(page.request);
  expect(Object.fromEntries(catalog.map((p) => [p.id, p.available]))).toEqual(AVAILABLE);
  await openSettings(page);
  await markNoReload(page);

  for (const p of catalog) {
    const card = page.getByTestId(`preset-${p.id}`);
    await expect(card).toContainText(p.name);
    await expect(card).toContainText(p.description);
    await expect(page.getByTestId(`preset-command-${p.id}`)).toHaveText(commandText(p.command));
    await expect(card).toHaveAttribute("data-available", String(p.available));
    await expect(page.getByTestId(`preset-status-${p.id}`)).toHaveText(p.available ? "Found on this machine" : "Not found on this machine");
    if (p.available) await expect(page.getByTestId(`preset-why-${p.id}`)).toHaveCount(0);
    else await expect(page.getByTestId(`preset-why-${p.id}`)).toContainText(p.unavailable_reason ?? "");
  }
  await expect(page.getByTestId("preset-why-gemini")).toContainText(catalog.find((p) => p.id === "gemini")?.install_hint ?? "");
  await expect(page.getByTestId("preset-fields")).toHaveCount(0);

  // Keyboard only: the presets are one radio group, named by each preset's name.
  const local = form(page).getByRole("radio", { name: "Claude (installed bridge)" });
  await local.focus();
  await page.keyboard.press("Space");
  await expect(local).toBeChecked();
  await expect(page.getByTestId("preset-unavailable-note")).toHaveCount(0);
  await page.keyboard.press("ArrowDown");
  await expect(form(page).getByRole("radio", { name: "Claude (bridge via npx)" })).toBeChecked();
  // A missing agent can still be added, and the form says what that means.
  await expect(page.getByTestId("preset-unavailable-note")).toContainText("is not installed on the board's machine. You can still add it now");
  await page.keyboard.press("ArrowUp");
  await expect(local).toBeChecked();
  await expect(page.getByTestId("preset-unavailable-note")).toHaveCount(0);

  const secret = `sk-ant-e2e-${Date.now()}`;
  const key = form(page).getByLabel("ANTHROPIC_API_KEY");
  await expect(key).toHaveAttribute("type", "password");
  await page.keyboard.press("Tab");
  await expect(form(page).getByLabel("Profile id (optional)")).toBeFocused();
  await page.keyboard.type("claude-e2e");
  await page.keyboard.press("Tab");
  await expect(form(page).getByLabel("Name (optional)")).toBeFocused();
  await page.keyboard.type("Claude at work");
  await key.focus();
  await page.keyboard.type(secret);
  await saveScreenshot(page.getByTestId("preset-form"), "settings-presets");
  await page.keyboard.press("Enter");

  await expect(page.getByTestId("preset-added")).toHaveText("Added Claude at work. It is in the list above.");
  const row = page.getByTestId("profile-claude-e2e");
  await expect(row).toContainText("Claude at work");
  await expect(page.getByTestId("profile-env-claude-e2e")).toHaveText("ANTHROPIC_API_KEY");
  await expectNotReloaded(page);
  // The key is cleared from the form and shown nowhere.
  await expect(key).toHaveValue("");
  await expect(page.locator("body")).not.toContainText(secret);

  const preset = catalog.find((p) => p.id === "claude-acp-local");
  const added = (await profiles(page.request)).find((p) => p.id === "claude-e2e");
  expect(added).toMatchObject({
    name: "Claude at work",
    command: preset?.command,
    agent_id: "claude-acp",
    // Write-only: the API names the key and masks its value (issue 34).
    env: { ANTHROPIC_API_KEY: "********" },
    builtin: false,
  });
  expect(preset?.command).toEqual([path.join(machine, "agents", "node_modules", ".bin", "claude-agent-acp")]);
  await expect(page.getByTestId("profile-command-claude-e2e")).toHaveText(preset?.command.join(" ") ?? "");
});

test("Settings presets: a duplicate id, a refused field and a lost board are shown, and nothing typed is lost", async ({ page }) => {
  const first = await page.request.post(`${board.url}/api/v1/agent-profiles/from-preset`, { data: { preset_id: "goose", id: "taken" } });
  expect(first.status(), await first.text()).toBe(201);
  await openSettings(page);

  await form(page).getByRole("radio", { name: "Gemini CLI" }).check();
  const secret = `gemini-e2e-${Date.now()}`;
  const id = form(page).getByLabel("Profile id (optional)");
  const name = form(page).getByLabel("Name (optional)");
  const key = form(page).getByLabel("GEMINI_API_KEY");
  await id.fill("taken");
  await name.fill("My Gemini");
  await form(page).getByLabel("Working directory (optional)").fill("projects/app");
  await key.fill(secret);
  await page.getByTestId("preset-submit").click();

  await expect(page.getByTestId("preset-failed")).toHaveText(
    "Could not add the agent: a profile with the id “taken” already exists. Nothing was changed.",
  );
  await expect(page.getByTestId("preset-error-id")).toHaveText("A profile with this id already exists. Choose another id.");
  await expect(id).toHaveAttribute("aria-invalid", "true");
  await expect(id).toBeFocused();
  await expect(id).toHaveValue("taken");
  await expect(name).toHaveValue("My Gemini");
  await expect(key).toHaveValue(secret);
  await expect(page.getByTestId("preset-added")).toHaveCount(0);
  expect((await profiles(page.request)).find((p) => p.id === "taken")).toMatchObject({ name: "goose", agent_id: "goose" });

  // A client-side rule: a malformed id is caught before anything is sent.
  await id.fill("Not An Id");
  await expect(page.getByTestId("preset-error-id")).toHaveCount(0);
  await page.getByTestId("preset-submit").click();
  await expect(page.getByTestId("preset-error-id")).toContainText("lowercase letters, digits");

  // The board's own validation: its details land under the field they name.
  await id.fill("gemini-e2e");
  await name.fill("x".repeat(201));
  await page.getByTestId("preset-submit").click();
  await expect(page.getByTestId("preset-failed")).toContainText("the board refused some fields");
  await expect(page.getByTestId("preset-error-name")).toBeVisible();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(key).toHaveValue(secret);

  // The board cannot be reached: said so, and still nothing is lost.
  await name.fill("My Gemini");
  await page.route("**/api/v1/agent-profiles/from-preset", (route) => route.abort("connectionrefused"));
  await page.getByTestId("preset-submit").click();
  await expect(page.getByTestId("preset-failed")).toHaveText("Could not add the agent: the board cannot be reached. Nothing was saved; try again.");
  await expect(key).toHaveValue(secret);
  await expect(id).toHaveValue("gemini-e2e");
  await page.unroute("**/api/v1/agent-profiles/from-preset");

  // Nothing else changed: trying again now succeeds with everything that was typed.
  await page.getByTestId("preset-submit").click();
  await expect(page.getByTestId("preset-added")).toHaveText("Added My Gemini. It is in the list above.");
  await expect(page.getByTestId("preset-failed")).toHaveCount(0);
  await expect(page.getByTestId("profile-gemini-e2e")).toContainText("My Gemini");
  expect((await profiles(page.request)).find((p) => p.id === "gemini-e2e")).toMatchObject({
    command: ["gemini", "--experimental-acp"],
    agent_id: "gemini",
    env: { GEMINI_API_KEY: "********" },
    cwd: "projects/app",
  });
  await expect(page.locator("body")).not.toContainText(secret);
});
