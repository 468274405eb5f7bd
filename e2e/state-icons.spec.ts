import { TASK_STATE_ICONS } from "../apps/web/lib/task-state-icon";
import { expect, test } from "./fixtures";
import { openBoard } from "./helpers";

// The state glyphs are CSS masks (apps/web/app/state-icons.css): an element whose mask image fails
// to load paints nothing, so a broken glyph would still pass every toBeVisible. Each one is drawn
// here in the board's own stylesheet and compared, pixel for pixel, with an empty box of its size
// and with the others.
test("every task state glyph draws, and each one differently", async ({ page }) => {
  await openBoard(page);
  await page.evaluate(
    (names) => {
      const box = document.createElement("div");
      box.dataset.testid = "glyph-sheet";
      box.style.cssText = "position:fixed;inset:0 auto auto 0;z-index:99;display:flex;gap:8px;padding:8px;background:var(--surface);animation:none";
      for (const name of [...names, "blank"]) {
        const glyph = document.createElement("span");
        glyph.className = name === "blank" ? "" : `state-icon state-icon--${name}`;
        glyph.style.cssText = "display:inline-block;width:20px;height:20px;animation:none";
        glyph.dataset.testid = `glyph-${name}`;
        box.append(glyph);
      }
      document.body.append(box);
    },
    [...TASK_STATE_ICONS],
  );
  const shots = new Map<string, string>();
  for (const name of [...TASK_STATE_ICONS, "blank"]) {
    shots.set(name, (await page.getByTestId(`glyph-${name}`).screenshot({ animations: "disabled" })).toString("base64"));
  }
  const blank = shots.get("blank");
  for (const name of TASK_STATE_ICONS) expect(shots.get(name), `${name} draws something`).not.toBe(blank);
  const distinct = new Set(TASK_STATE_ICONS.map((name) => shots.get(name)));
  expect(distinct.size, "no two states share a glyph").toBe(TASK_STATE_ICONS.length);
});
