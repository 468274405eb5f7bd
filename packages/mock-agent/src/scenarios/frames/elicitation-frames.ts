// elicitation/create params copied verbatim from the bridge conformance fixtures
// (packages/agentctl/test/fixtures/bridge-*, see its README). Each constant names its fixture; a
// test (elicitation-frames.test.ts) checks they still equal the fixture files. Session ids are
// replaced with the real ACP session id when a scenario sends them (withSession).

/** One `elicitation/create` params object as JSON. */
export type Frame = Readonly<Record<string, unknown>>;

/** From bridge-0.65.0/wire-ask-user-question.json: the elicitation/create params (marked companions). */
export const ASK_USER_QUESTION_0_65: Frame = {
  mode: "form",
  sessionId: "e5672612-d015-4d5f-aee8-8b4962e3ed65",
  toolCallId: "toolu_fake_1",
  message: "Please answer the following questions.",
  requestedSchema: {
    type: "object",
    properties: {
      question_0: {
        type: "string",
        title: "Colour",
        description: "Which colour should the button be?",
        oneOf: [
          {
            const: "Red",
            title: "Red",
            description: "Warm and loud.",
          },
          {
            const: "Blue",
            title: "Blue",
            description: "Calm.",
            _meta: {
              "_claude/askUserQuestionOption": {
                preview: "<button style='color:blue'>",
              },
            },
          },
        ],
      },
      question_0_custom: {
        type: "string",
        title: "Other",
        description: "Type your own answer instead of choosing an option above (optional).",
        _meta: {
          _askUserQuestionCustomAnswer: {
            questionId: "question_0",
            isCustomAnswer: true,
          },
        },
      },
      question_1: {
        type: "array",
        title: "Platforms",
        description: "Which platforms should ship it?",
        items: {
          anyOf: [
            {
              const: "Web",
              title: "Web",
              description: "Browser.",
            },
            {
              const: "iOS",
              title: "iOS",
              description: "Apple.",
            },
            {
              const: "Android",
              title: "Android",
              description: "Google.",
            },
          ],
        },
      },
      question_1_custom: {
        type: "string",
        title: "Other",
        description: "Type your own answer instead of choosing an option above (optional).",
        _meta: {
          _askUserQuestionCustomAnswer: {
            questionId: "question_1",
            isCustomAnswer: true,
          },
        },
      },
    },
  },
};

/** From bridge-0.101.0/wire-ask-user-question.json: the elicitation/create params (companions without marker). */
export const ASK_USER_QUESTION_0_101: Frame = {
  mode: "form",
  sessionId: "b67bc9c1-1607-4c36-96ec-de2b07158137",
  toolCallId: "toolu_fake_2",
  message: "Please answer the following questions.",
  requestedSchema: {
    type: "object",
    properties: {
      question_0: {
        type: "string",
        title: "Colour",
        description: "Which colour should the button be?",
        oneOf: [
          {
            const: "Red",
            title: "Red",
            description: "Warm and loud.",
          },
          {
            const: "Blue",
            title: "Blue",
            description: "Calm.",
            _meta: {
              "_claude/askUserQuestionOption": {
                preview: "<button style='color:blue'>",
              },
            },
          },
        ],
      },
      question_0_custom: {
        type: "string",
        title: "Other",
        description: "Type your own answer, or add a note to the option you chose above (optional).",
      },
      question_1: {
        type: "array",
        title: "Platforms",
        description: "Which platforms should ship it?",
        items: {
          anyOf: [
            {
              const: "Web",
              title: "Web",
              description: "Browser.",
            },
            {
              const: "iOS",
              title: "iOS",
              description: "Apple.",
            },
            {
              const: "Android",
              title: "Android",
              description: "Google.",
            },
          ],
        },
      },
      question_1_custom: {
        type: "string",
        title: "Other",
        description: "Type your own answer to add to your selection above (optional).",
      },
    },
  },
};

/** From bridge-0.65.0/wire-mcp-passthrough.json: the elicitation/create params (MCP passthrough, no toolCallId). */
export const MCP_API_KEY: Frame = {
  mode: "form",
  sessionId: "3006560e-791b-4817-a147-53bd65281551",
  message: "Enter your API key",
  requestedSchema: {
    type: "object",
    properties: {
      apiKey: {
        type: "string",
      },
    },
  },
};

/** From bridge-0.101.0/refusal-fallback.json: createRequest. */
export const REFUSAL_FALLBACK: Frame = {
  mode: "form",
  sessionId: "sess-1",
  message: "Fable declined this request (safety). Retry with Opus?\n\nSome guidance text from the API.",
  requestedSchema: {
    type: "object",
    properties: {
      choice: {
        type: "string",
        oneOf: [
          {
            const: "retry_fallback",
            title: "Retry with Opus",
            description: "The session continues on Opus.",
          },
          {
            const: "cancelled",
            title: "Keep the refusal",
            description: "You can send a new message.",
          },
        ],
      },
    },
  },
};

/** From bridge-0.65.0/mcp-passthrough.json: urlWithUrl. */
export const URL_MODE: Frame = {
  mode: "url",
  sessionId: "sess-1",
  message: "auth",
  url: "https://example.invalid/auth",
  elicitationId: "e-1",
};

/** From bridge-0.65.0/mcp-passthrough.json: formNoSchema. */
export const EMPTY_SCHEMA: Frame = {
  mode: "form",
  sessionId: "sess-1",
  message: "no schema",
  requestedSchema: {
    type: "object",
    properties: {},
  },
};
