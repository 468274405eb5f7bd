import assert from "node:assert/strict";
import { test } from "node:test";
import { fromAcceptLanguage, isLanguage, resolveLanguage } from "./language";

test("?lang= beats the cookie, which beats Accept-Language; unsupported values are ignored", () => {
  assert.equal(resolveLanguage({ query: "de", cookie: "en", acceptLanguage: "en" }), "de");
  assert.equal(resolveLanguage({ query: "xx", cookie: "de" }), "de");
  assert.equal(resolveLanguage({ cookie: "fr", acceptLanguage: "de-CH, en;q=0.5" }), "de");
  assert.equal(resolveLanguage({}), "en");
  assert.equal(resolveLanguage({ query: "DE" }), "en", "exact codes only");
});

test("Accept-Language is read by weight, then by order", () => {
  assert.equal(fromAcceptLanguage("fr-FR, de;q=0.8, en;q=0.9"), "en");
  assert.equal(fromAcceptLanguage("fr, de-AT;q=0.7"), "de");
  assert.equal(fromAcceptLanguage("de;q=0, en;q=0.1"), "en");
  assert.equal(fromAcceptLanguage("fr"), null);
  assert.equal(fromAcceptLanguage(""), null);
});

test("isLanguage knows exactly the shipped languages", () => {
  assert.equal(isLanguage("en"), true);
  assert.equal(isLanguage("de"), true);
  assert.equal(isLanguage("de-DE"), false);
  assert.equal(isLanguage(undefined), false);
});
