// Loads the bridge conformance fixtures (test/fixtures/bridge-*) through zod schemas, so a fixture
// that stops matching the shapes the elicitation code is tested against fails loudly instead of
// silently testing something else. Strict objects: an unexpected new field is a failure too.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const EXACT_VERSION = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/;

/** Semver precedence of two exact bridge versions (`0.65.0` < `0.78.0` < `0.101.0`). */
export function compareBridgeVersions(a: string, b: string): number {
  const [pa, pb] = [EXACT_VERSION.exec(a), EXACT_VERSION.exec(b)];
  if (!pa || !pb) throw new Error(`not an exact version: ${pa ? b : a}`);
  for (let i = 1; i <= 3; i++) {
    const d = Number(pa[i]) - Number(pb[i]);
    if (d !== 0) return Math.sign(d);
  }
  // A prerelease sorts before its release; two prereleases by their text (enough for folder order).
  if (pa[4] === pb[4]) return 0;
  if (pa[4] === undefined) return 1;
  if (pb[4] === undefined) return -1;
  return pa[4] < pb[4] ? -1 : 1;
}

/**
 * Every captured bridge version: one per `test/fixtures/bridge-<version>/` folder (written by
 * `npm run fixtures:capture`), oldest first. A `bridge-*` folder not named after an exact version
 * is an error, so a stray folder cannot silently escape the conformance tests.
 */
function discoverBridgeVersions(): string[] {
  const root = fileURLToPath(new URL("./fixtures/", import.meta.url));
  const versions: string[] = [];
  for (const name of readdirSync(root)) {
    if (!name.startsWith("bridge-") || !statSync(`${root}${name}`).isDirectory()) continue;
    const version = name.slice("bridge-".length);
    if (!EXACT_VERSION.test(version)) throw new Error(`test/fixtures/${name} is not named bridge-<exact version>`);
    versions.push(version);
  }
  return versions.sort(compareBridgeVersions);
}

export const BRIDGE_VERSIONS: readonly string[] = discoverBridgeVersions();
/** A captured bridge version (an element of BRIDGE_VERSIONS). */
export type BridgeVersion = string;

const MetaSchema = z.record(z.string(), z.unknown());
const EnumOptionSchema = z.strictObject({
  const: z.string(),
  title: z.string(),
  description: z.string().optional(),
  _meta: MetaSchema.optional(),
});
const SingleSelectSchema = z.strictObject({
  type: z.literal("string"),
  title: z.string().optional(),
  description: z.string().optional(),
  oneOf: z.array(EnumOptionSchema).min(1),
});
const MultiSelectSchema = z.strictObject({
  type: z.literal("array"),
  title: z.string().optional(),
  description: z.string().optional(),
  items: z.strictObject({ anyOf: z.array(EnumOptionSchema).min(1) }),
});
const CompanionSchema = z.strictObject({
  type: z.literal("string"),
  title: z.string(),
  description: z.string(),
  _meta: z
    .strictObject({
      _askUserQuestionCustomAnswer: z.strictObject({ questionId: z.string(), isCustomAnswer: z.literal(true) }),
    })
    .optional(),
});
const PlainStringSchema = z.strictObject({ type: z.literal("string") });
export const FixturePropertySchema = z.union([SingleSelectSchema, MultiSelectSchema, CompanionSchema, PlainStringSchema]);

export const FixtureFormRequestSchema = z.strictObject({
  mode: z.literal("form"),
  sessionId: z.string().min(1),
  toolCallId: z.string().min(1).optional(),
  message: z.string(),
  requestedSchema: z.strictObject({
    type: z.literal("object"),
    properties: z.record(z.string(), FixturePropertySchema).optional(),
  }),
});
export type FixtureFormRequest = z.infer<typeof FixtureFormRequestSchema>;
const FixtureUrlRequestSchema = z.strictObject({
  mode: z.literal("url"),
  sessionId: z.string(),
  message: z.string(),
  url: z.string().url(),
  elicitationId: z.string(),
});

const AskOptionSchema = z.strictObject({
  label: z.string(),
  description: z.string().optional(),
  preview: z.string().optional(),
});
const AskQuestionSchema = z.strictObject({
  question: z.string(),
  header: z.string(),
  multiSelect: z.boolean().optional(),
  options: z.array(AskOptionSchema),
});
export type AskQuestion = z.infer<typeof AskQuestionSchema>;
const AskInputSchema = z.strictObject({ questions: z.array(AskQuestionSchema) });

/** Any response an ACP client might send; `content` values are unchecked on purpose (fixtures probe bad ones). */
export const FixtureResponseSchema = z.strictObject({
  action: z.string(),
  content: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type FixtureResponse = z.infer<typeof FixtureResponseSchema>;

export const AskFixtureSchema = z.strictObject({
  input: AskInputSchema,
  extracted: z.array(AskQuestionSchema),
  createRequest: FixtureFormRequestSchema,
});

const ApplyResultSchema = z.union([
  z.strictObject({
    action: z.literal("answered"),
    updatedInput: z.strictObject({
      questions: z.array(AskQuestionSchema),
      answers: z.record(z.string(), z.string()),
      annotations: z.record(z.string(), z.strictObject({ notes: z.string() })).optional(),
    }),
  }),
  z.strictObject({ action: z.literal("cancel") }),
]);
export const ApplyFixtureSchema = z.strictObject({
  toolInput: AskInputSchema,
  results: z.record(z.string(), z.strictObject({ response: FixtureResponseSchema, result: ApplyResultSchema })),
});

export const McpFixtureSchema = z.strictObject({
  apiKeyForm: FixtureFormRequestSchema,
  formNoMode_TypeMissing: FixtureFormRequestSchema,
  formNoSchema: FixtureFormRequestSchema,
  urlWithoutUrl: z.null(),
  urlWithUrl: FixtureUrlRequestSchema,
  responseMapping: z.record(z.string(), z.strictObject({ response: FixtureResponseSchema, elicitResult: FixtureResponseSchema })),
});

export const RefusalFixtureSchema = z.strictObject({
  REFUSAL_FALLBACK_DIALOG_KIND: z.literal("refusal_fallback_prompt"),
  payload: z.record(z.string(), z.string()),
  extracted: z.record(z.string(), z.string()),
  createRequest: FixtureFormRequestSchema,
  noCategoryNoGuidance: FixtureFormRequestSchema,
  badPayload: z.null(),
  results: z.record(z.string(), z.strictObject({ response: FixtureResponseSchema, result: z.enum(["retry_fallback", "cancelled"]) })),
});

const WireFrameSchema = z.strictObject({
  jsonrpc: z.literal("2.0"),
  id: z.number(),
  method: z.string(),
  params: z.unknown(),
});
export const WireFixtureSchema = z.strictObject({
  run: z.string(),
  agentToClientFrames: z.array(WireFrameSchema).min(1),
  toolResultsSeenByFakeModel: z.array(z.record(z.string(), z.unknown())).min(1),
});

export const ExtractFixtureSchema = z.strictObject({
  oneGoodOneBad: z.array(AskQuestionSchema),
  allBad: z.null(),
  nonArray: z.null(),
  missing: z.null(),
  oneOptionOnly: z.array(AskQuestionSchema),
});

/** Every fixture file and the schema it must satisfy. */
export const FIXTURE_SCHEMAS = {
  "ask-1-no-toolcallid.json": AskFixtureSchema,
  "ask-1-single-select-preview.json": AskFixtureSchema,
  "ask-2-second-multiselect.json": AskFixtureSchema,
  "ask-4-mixed.json": AskFixtureSchema,
  "apply-responses-two-questions.json": ApplyFixtureSchema,
  "apply-responses-four-questions.json": ApplyFixtureSchema,
  "mcp-passthrough.json": McpFixtureSchema,
  "refusal-fallback.json": RefusalFixtureSchema,
  "wire-ask-user-question.json": WireFixtureSchema,
  "wire-mcp-passthrough.json": WireFixtureSchema,
  "extract-gatekeeping.json": ExtractFixtureSchema,
} as const;
export type FixtureName = keyof typeof FIXTURE_SCHEMAS;

export function fixtureUrl(relative: string): URL {
  return new URL(`./fixtures/${relative}`, import.meta.url);
}

/** The raw JSON text of a fixture file. */
export function readFixtureJson(relative: string): unknown {
  return JSON.parse(readFileSync(fixtureUrl(relative), "utf8"));
}

/** Loads one bridge fixture and parses it through its schema (throws when it does not match). */
export function loadFixture<N extends FixtureName>(version: BridgeVersion, name: N): z.infer<(typeof FIXTURE_SCHEMAS)[N]> {
  return FIXTURE_SCHEMAS[name].parse(readFixtureJson(`bridge-${version}/${name}`)) as z.infer<(typeof FIXTURE_SCHEMAS)[N]>;
}

/** The single `elicitation/create` frame of a wire capture. */
export function wireElicitation(version: BridgeVersion, name: "wire-ask-user-question.json" | "wire-mcp-passthrough.json") {
  const wire = loadFixture(version, name);
  const frames = wire.agentToClientFrames.filter((f) => f.method === "elicitation/create");
  if (frames.length !== 1) throw new Error(`${name}: expected exactly one elicitation/create frame`);
  return { params: FixtureFormRequestSchema.parse(frames[0]?.params), wire };
}
