import { PASSWORD_MIN_LENGTH } from "@kandev/protocol";

/** The board refuses shorter passwords (400 VALIDATION_ERROR); the forms say so before asking. */
export function passwordProblem(password: string): { min: number } | null {
  return password.length < PASSWORD_MIN_LENGTH ? { min: PASSWORD_MIN_LENGTH } : null;
}
