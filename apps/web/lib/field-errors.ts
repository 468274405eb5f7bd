// What a form says next to a field, in the operator's language: a problem the form finds itself
// (a blank title) or one the API lists in a VALIDATION_ERROR (`{path, code, message}`), turned into
// an i18n key under `validation.` and its values. The API's own English message is never shown,
// so no schema wording ("Too small: expected string ...") reaches the operator. Pure.

/** An i18n key and its interpolation values. */
export interface Words {
  key: string;
  values?: Record<string, string | number>;
}

export interface FieldProblemLike {
  path: string;
  code?: string;
  message: string;
}

const BLANK: Record<string, string> = {
  title: "validation.titleBlank",
  prompt: "validation.promptBlank",
  text: "validation.promptBlank",
  name: "validation.nameBlank",
  command: "validation.commandEmpty",
};

const REFUSED: Record<string, string> = {
  agent_profile_id: "validation.profileUnknown",
  repository_id: "validation.repositoryInvalid",
  base_branch: "validation.branchUnknown",
  state: "validation.stateNotMovable",
};

const MAX_LENGTH: Record<string, number> = { title: 500, name: 200, prompt: 1_000_000, text: 1_000_000 };

/** The words for one API field problem. `field` is the form's field the problem's path names. */
export function fieldProblemWords(field: string, problem: FieldProblemLike): Words {
  const code = problem.code ?? "";
  if (code === "too_big" && MAX_LENGTH[field] !== undefined) return { key: "validation.tooLong", values: { max: MAX_LENGTH[field] } };
  if ((code === "too_small" || code === "custom") && BLANK[field] !== undefined) return { key: BLANK[field] };
  if (code === "invalid_type" || code === "invalid_value") return { key: "validation.invalidValue" };
  const refused = REFUSED[field];
  if (refused !== undefined) return { key: refused };
  return { key: "validation.invalidValue" };
}

/** The create-task form's own checks, before anything is sent: a blank title or prompt. */
export function taskFormProblems(fields: { title: string; prompt: string }): Array<{ field: "title" | "prompt"; words: Words }> {
  const out: Array<{ field: "title" | "prompt"; words: Words }> = [];
  if (fields.title.trim() === "") out.push({ field: "title", words: { key: BLANK.title! } });
  if (fields.prompt.trim() === "") out.push({ field: "prompt", words: { key: BLANK.prompt! } });
  return out;
}
