import { ProtocolError } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPort } from "../client/helpers.js";
import { type Harness, startHarness } from "../helpers/mcp-harness.js";

// The resources as a client sees them: listed, read, completed, and refused by URI.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const textOf = (result: { contents: unknown[] }) => (result.contents[0] as { text: string }).text;

async function readError(uri: string): Promise<ProtocolError> {
  const error = await h.client.readResource({ uri }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  return error as ProtocolError;
}

describe("resources", () => {
  it("lists the schema index, the timesheet payload schema and the changes, and the type template", async () => {
    const { resources } = await h.client.listResources();
    expect(resources.map((r) => [r.uri, r.mimeType])).toEqual([
      ["workforce://schema", "text/plain"],
      ["workforce://timesheets/payload-schema", "application/schema+json"],
      ["workforce://changes", "text/plain"],
    ]);
    expect(resources.every((r) => r.name && r.title && r.description)).toBe(true);
    const { resourceTemplates } = await h.client.listResourceTemplates();
    expect(resourceTemplates).toHaveLength(1);
    expect(resourceTemplates[0]).toMatchObject({
      uriTemplate: "workforce://schema/types/{name}",
      mimeType: "text/plain",
      title: "Platform API type",
    });
  });

  it("reads the index, one type and the payload schema", async () => {
    expect(textOf(await h.client.readResource({ uri: "workforce://schema" }))).toMatch(
      /^hires\(.*\): HirePaginator!$/m,
    );
    const hire = await h.client.readResource({ uri: "workforce://schema/types/Hire" });
    expect(hire.contents[0]).toMatchObject({
      uri: "workforce://schema/types/Hire",
      mimeType: "text/plain",
    });
    expect(textOf(hire)).toMatch(/^type Hire \{/m);
    const payload = JSON.parse(
      textOf(await h.client.readResource({ uri: "workforce://timesheets/payload-schema" })),
    );
    expect(payload.$schema).toMatch(/2020-12/);
  });

  it("refuses an unknown type and an unknown URI as 'resource not found', saying what to do", async () => {
    const type = await readError("workforce://schema/types/hire");
    // Resource not found is -32602 with the URI in data (MCP 2026-07-28; SDK 2.x on every era).
    expect(type.code).toBe(-32602);
    expect(type.data).toMatchObject({ uri: "workforce://schema/types/hire" });
    expect(type.message).toContain('no type named "hire"');
    expect(type.message).toContain("case-sensitive");
    const other = await readError("workforce://nothing-here");
    expect(other.code).toBe(-32602);
    // The message is the server's own sentence, with no code in it.
    expect(other.message).toMatch(/^There is no resource "workforce:\/\/nothing-here"\./);
  });

  it("a read that cannot reach the platform says so with the code once, and how to fix it", async () => {
    const port = await closedPort();
    const down = await startHarness({ config: { apiUrl: `http://127.0.0.1:${port}` } });
    try {
      const error = await down.client.readResource({ uri: "workforce://schema" }).then(
        () => undefined,
        (caught: unknown) => caught as ProtocolError,
      );
      expect(error?.code).toBe(-32603);
      expect(error?.message).toMatch(/^Reading workforce:\/\/schema failed: /);
      expect(error?.message).not.toMatch(/MCP error|-32603/);
      expect(error?.message).toContain(`Nothing accepted the connection at 127.0.0.1:${port}`);
    } finally {
      await down.close();
    }
  });

  it("completes type names in the template", async () => {
    const { completion } = await h.client.complete({
      ref: { type: "ref/resource", uri: "workforce://schema/types/{name}" },
      argument: { name: "name", value: "HirePag" },
    });
    expect(completion.values).toEqual(["HirePaginator"]);
  });
});
