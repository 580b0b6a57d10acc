// tsc drops the executable bit; the bin entry needs it.
import { chmodSync } from "node:fs";

chmodSync(new URL("../dist/cli.js", import.meta.url), 0o755);
