// The built HTTP server (dist/, as `workforce-mcp --http` starts it) in a process of its own, run
// with --expose-gc: the bench asks it over IPC for the heap it holds after a full collection, the
// figure for what its stores keep, which RSS (allocator pages not yet returned) does not show.
import { parseConfig } from "../dist/config.js";
import { createLogger } from "../dist/logger.js";
import { startHttpServer } from "../dist/transports/http.js";

const config = parseConfig(["--http", "--host", "127.0.0.1", "--port", "0"], process.env);
const server = await startHttpServer(
  config,
  createLogger("error", () => {}),
  "bench",
);
process.on("message", async (message) => {
  if (message === "heap") {
    // Twice: the first collection's finalizers may free more for the second.
    globalThis.gc();
    globalThis.gc();
    process.send({ heap: process.memoryUsage().heapUsed });
  } else if (message === "stop") {
    await server.close();
    process.exit(0);
  }
});
process.send({ url: server.url });
