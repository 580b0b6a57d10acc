// The tool surface exactly as an MCP client sees it: a real SDK Client lists the tools of a server
// built from the registry. Listing never reaches the platform, so the client is a stub.

import type { Tool } from "@modelcontextprotocol/client";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import type { PlatformClient } from "../../src/client/types.js";
import { parseConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { createServer } from "../../src/server.js";
import { loadCatalog } from "../../src/tools/catalog.js";

const unusedPlatform: PlatformClient = {
  request() {
    throw new Error("listing tools must not call the platform");
  },
} as unknown as PlatformClient;

/**
 * Every tool's entry as a client sees it once the tool is in its list (the core at first, the rest
 * after find_tools adds them), in the registry's order.
 */
export async function everyToolAsListed(): Promise<Tool[]> {
  return (await loadCatalog()).map((entry) => entry.listEntry as Tool);
}

/**
 * The tools a start lists at first (not read-only, unless `args` say so), in the order `tools/list`
 * returns them.
 */
export async function listToolsAsClientSees(args: string[] = []): Promise<Tool[]> {
  const config = parseConfig(["--sandbox", ...args], {});
  const workforce = createServer(config, {
    client: unusedPlatform,
    logger: createLogger("error", () => {}),
    version: "0.0.0-meta",
    catalog: await loadCatalog(),
  });
  const client = new Client({ name: "meta-tests", version: "0.0.0" });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await workforce.server.connect(serverTransport);
  await client.connect(clientTransport);
  try {
    const all: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      all.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return all;
  } finally {
    await client.close();
    await workforce.close();
  }
}

/** The part of a tool a snapshot pins: what the assistant reads and what clients validate. */
export function snapshotOf(tool: Tool): Record<string, unknown> {
  return {
    name: tool.name,
    title: tool.title ?? null,
    description: tool.description ?? null,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema ?? null,
    annotations: tool.annotations ?? null,
  };
}
