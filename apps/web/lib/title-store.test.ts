import assert from "node:assert/strict";
import { test } from "node:test";
import { TitleStore } from "./title-store";

test("the title store composes the page name (or the fallback) with the unread count and notifies", () => {
  const store = new TitleStore();
  let changes = 0;
  const off = store.subscribe(() => changes++);
  assert.equal(store.compose("Kandev"), "Kandev");
  store.setCount(2);
  assert.equal(store.compose("Kandev"), "(2) Kandev");
  store.setBase("Fix it · Kandev");
  assert.equal(store.compose("Kandev"), "(2) Fix it · Kandev");
  store.setBase("Fix it · Kandev");
  store.setCount(2);
  assert.equal(changes, 2, "setting the same value does not notify");
  off();
  store.setCount(0);
  assert.equal(changes, 2);
  store.setBase(null);
  assert.equal(store.compose("Kandev"), "Kandev");
});
