// Imports each test file named on the command line into this one process, in order. node:test then
// runs all their tests under one root, as if they were one file: one tsx start-up and one module
// graph for a whole package instead of one per file. On Node 20 `--test` always spawns a process
// per file (in-process isolation came in Node 22.8), and that start-up is most of a pure test's cost.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

for (const file of process.argv.slice(2)) await import(pathToFileURL(resolve(file)).href);
