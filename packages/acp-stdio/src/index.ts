export { NdJsonLines, decodeLine, stdioJsonStream, type LineVerdict, type StdioStreamOptions } from "./ndjson.js";
