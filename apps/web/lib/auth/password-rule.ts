import { MIN_PASSWORD_LENGTH } from "@kandev/protocol";

/** The board refuses shorter passwords (400 VALIDATION_ERROR); the forms say so before asking. */
export function passwordProblem(password: string): { min: number } | null {
  return password.length < MIN_PASSWORD_LENGTH ? { min: MIN_PASSWORD_LENGTH } : null;
}
