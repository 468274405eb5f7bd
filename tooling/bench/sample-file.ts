// `--samples FILE`: the paced passes' samples, appended to one file between passes. A file that
// cannot be written is reported at the start (nothing runs); one that fails later (a full disk) is
// reported once and then left alone, so the run itself and its figures are not lost with it.
import fs from "node:fs";
import { sampleLines, type PassLabel, type RecorderLike } from "./recorder.js";

type Files = Pick<typeof fs, "writeFileSync" | "appendFileSync">;

export class SampleFile {
  private failed = false;

  /** Creates (or empties) `path`; throws with the reason when it cannot be written. */
  constructor(
    readonly path: string,
    private readonly log: (message: string) => void,
    private readonly files: Files = fs,
  ) {
    files.writeFileSync(path, "");
  }

  /** Appends one pass's samples; after a failure, says so once and writes nothing more. */
  append(rec: Pick<RecorderLike, "asks" | "answers" | "askOrigins" | "answerOrigins">, label: PassLabel): void {
    if (this.failed) return;
    try {
      this.files.appendFileSync(this.path, sampleLines(rec, label));
    } catch (err) {
      this.failed = true;
      this.log(`samples: cannot append to ${this.path} (${err instanceof Error ? err.message : String(err)}); the run goes on without them`);
    }
  }
}
