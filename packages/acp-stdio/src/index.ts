export { NdJsonLines, decodeLine, stdioJsonStream, type LineVerdict, type StdioStreamOptions } from "./ndjson.js";
export { LineFramer } from "./lines.js";
export type { FramedLine } from "./lines.js";
