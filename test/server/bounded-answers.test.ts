// Bounded answers through the real SDK client: an oversized platform answer becomes a readable
// error, a tool answer over WORKFORCE_MAX_ANSWER_BYTES is cut (structured content still valid),
// and a huge argument value is not echoed whole.
import type { CallToolResult } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ResponseTooLargeError, ValidationError } from "../../src/client/errors.js";
import { SANDBOX_NOTICE } from "../../src/server.js";
import { cutAtLine, fitAnswer, smallAndClean } from "../../src/tools/answer-budget.js";
import { defineTool, type ToolOutput } from "../../src/tools/define-tool.js";
import { toToolErrorResult } from "../../src/tools/tool-error.js";
import { type BigAnswerServer, bigAnswerServer } from "../helpers/big-answer.js";
import { type Harness, type HarnessOptions, startHarness } from "../helpers/mcp-harness.js";

const MB = 1024 * 1024;
const KB = 1024;

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

async function harness(options: HarnessOptions = {}): Promise<Harness> {
  const h = await startHarness(options);
  open.push(h);
  return h;
}

function textOf(result: CallToolResult | Record<string, unknown>): string {
  const content = (result as CallToolResult).content;
  const first = content[0];
  if (content.length !== 1 || first?.type !== "text") throw new Error("expected one text block");
  return first.text;
}

/** What the MCP message carries: text plus structured content JSON, in bytes. */
function answerBytes(result: CallToolResult | Record<string, unknown>): number {
  const r = result as CallToolResult;
  return (
    Buffer.byteLength(textOf(r)) +
    (r.structuredContent === undefined ? 0 : Buffer.byteLength(JSON.stringify(r.structuredContent)))
  );
}

const annotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

const itemOutput = z.object({ id: z.string(), name: z.string() });
const manyOutput = {
  items: z.array(itemOutput),
  total: z.number(),
  note: z.string(),
};
type ManyStructured = { items: z.infer<typeof itemOutput>[]; total: number; note: string };

/** `count` items of about `nameLength` characters, one per text line; a `noteLength` note. */
const many = defineTool({
  name: "many",
  instruction: "Test tool.",
  readme: { does: "Test tool." },
  title: "Many",
  description: "Returns as many items as asked for.",
  toolset: "hires",
  inputSchema: {
    count: z.number().int().min(0),
    nameLength: z.number().int().min(1).default(40),
    noteLength: z.number().int().min(0).default(10),
    textLines: z.boolean().default(true),
  },
  outputSchema: manyOutput,
  annotations,
  async handler({ count, nameLength, noteLength, textLines }) {
    const items = Array.from({ length: count }, (_, i) => ({
      id: `item-${i}`,
      name: `Name ${i} ${"é".repeat(nameLength)}`,
    }));
    const structured = { items, total: count, note: "n".repeat(noteLength) };
    const text = textLines
      ? [`${count} items:`, ...items.map((item) => `- ${item.id}: ${item.name}`)].join("\n")
      : `${count} items.`;
    return { structured, text };
  },
});

/** A structured string that may not be cut: any "…" breaks its pattern. */
const strict = defineTool({
  name: "strict",
  instruction: "Test tool.",
  readme: { does: "Test tool." },
  title: "Strict",
  description: "Returns one long code that must stay whole.",
  toolset: "hires",
  inputSchema: { length: z.number().int() },
  outputSchema: { code: z.string().regex(/^x+$/) },
  annotations,
  async handler({ length }) {
    return { structured: { code: "x".repeat(length) }, text: "code" };
  },
});

/** Fails with a platform validation error naming `rows` arguments. */
const refuses = defineTool({
  name: "refuses",
  instruction: "Test tool.",
  readme: { does: "Test tool." },
  title: "Refuses",
  description: "Fails with a long validation error.",
  toolset: "hires",
  inputSchema: { rows: z.number().int() },
  outputSchema: { ok: z.boolean() },
  annotations,
  async handler({ rows }) {
    const validation: Record<string, string[]> = {};
    for (let i = 0; i < rows; i++) {
      validation[`input.registrations.${i}.hours`] = ["Hours must be between 0 and 24."];
    }
    throw new ValidationError("The given data was invalid.", { validation });
  },
});

const testTools = [many, strict, refuses];

const NOTE =
  /^\[Answer cut at [\d.]+ KB of [\d.]+ (KB|MB)( \(([^)]*)\))?: ask for fewer results \(first\), a later page, or a narrower filter\.\]$/;

describe("WORKFORCE_MAX_RESPONSE_BYTES: a 50 MB platform answer", () => {
  let server: BigAnswerServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  // The memory such an answer costs is a figure of `npm run bench` (bench/ceilings.mjs).
  it("search_hires gives a readable error and stops reading (chunked, no Content-Length)", async () => {
    server = await bigAnswerServer({ totalBytes: 50 * MB, contentLength: false });
    const h = await harness({ config: { apiUrl: server.url } });
    expect(h.config.maxResponseBytes).toBe(5 * MB);
    const result = await h.client.callTool({ name: "search_hires", arguments: { search: "Ana" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      [
        SANDBOX_NOTICE,
        "search_hires failed: the platform's answer was larger than 5 MB, the most this server reads (WORKFORCE_MAX_RESPONSE_BYTES), so it was not read.",
        "Ask for less: fewer results per page (a smaller `first`), a later page, or a narrower filter (a search term, a status, a date range). Or raise WORKFORCE_MAX_RESPONSE_BYTES (in bytes) in the server's configuration and restart it.",
        "Trying the same call again will not help; narrow the request or raise the limit first.",
      ].join("\n"),
    );
    expect(server.hits).toBe(1);
    expect(server.written).toBeLessThan(25 * MB);
  });

  it("with a Content-Length over the limit, the error names the announced size", async () => {
    server = await bigAnswerServer({ totalBytes: 50 * MB, contentLength: true });
    const h = await harness({ config: { apiUrl: server.url } });
    const result = await h.client.callTool({ name: "search_hires", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      "the platform's answer was larger than 5 MB (it announced 50 MB), the most this server reads",
    );
  });

  it("a write: says the change may have happened and not to simply retry", () => {
    const result = toToolErrorResult(
      new ResponseTooLargeError("x", {
        operation: "TerminateHire",
        limitBytes: 5 * MB,
        outcomeUnknown: true,
      }),
      "terminate_hire",
    );
    expect(textOf(result)).toBe(
      [
        "terminate_hire failed: the platform's answer to the change was larger than 5 MB, the most this server reads (WORKFORCE_MAX_RESPONSE_BYTES), so it was not read. The change may have happened, or may not.",
        "The change may or may not have been made. Read the record back before trying again.",
        "Do not simply try again: read the record back first, then try again only if the change is missing.",
      ].join("\n"),
    );
  });
});

describe("WORKFORCE_MAX_ANSWER_BYTES", () => {
  it("an answer under the limit is exactly what the tool returned", async () => {
    const h = await harness({ tools: testTools, config: { maxAnswerBytes: 8 * KB } });
    const direct = (await many.handler(
      { count: 3, nameLength: 40, noteLength: 10, textLines: true },
      {} as never,
    )) as ToolOutput<unknown>;
    const result = await h.client.callTool({ name: "many", arguments: { count: 3 } });
    expect(result.content).toEqual([{ type: "text", text: `${SANDBOX_NOTICE}\n${direct.text}` }]);
    expect(JSON.stringify(result.structuredContent)).toBe(JSON.stringify(direct.structured));
  });

  it("a long answer is cut at a line, with a note, and its structured content still validates", async () => {
    const h = await harness({ tools: testTools, config: { maxAnswerBytes: 8 * KB } });
    await h.client.listTools(); // so that the client validates structured content too
    const result = await h.client.callTool({ name: "many", arguments: { count: 2000 } });
    expect(result.isError).toBeFalsy();
    const bytes = answerBytes(result);
    const text = textOf(result);
    const lines = text.split("\n");
    const note = lines.at(-1) ?? "";
    console.log(`many (2000 items): answer ${bytes} bytes of an 8 KB budget; note: ${note}`);
    expect(bytes).toBeLessThanOrEqual(8 * KB);
    expect(note).toMatch(NOTE);
    expect(note).toContain("the text ends early");
    expect(note).toMatch(/`items` keeps \d+ of 2000 items/);
    // Whole lines only: the notice, the header, then complete item lines.
    expect(lines[0]).toBe(SANDBOX_NOTICE);
    expect(lines[1]).toBe("2000 items:");
    for (const line of lines.slice(2, -1)) expect(line).toMatch(/^- item-\d+: Name \d+ é{40}$/);
    const structured = result.structuredContent as ManyStructured;
    expect(z.object(manyOutput).safeParse(structured).success).toBe(true);
    expect(structured.total).toBe(2000);
    expect(structured.items.length).toBeGreaterThan(0);
    expect(structured.items.length).toBeLessThan(2000);
    structured.items.forEach((item, i) => {
      expect(item.id).toBe(`item-${i}`);
    });
    expect(note).toContain(`\`items\` keeps ${structured.items.length} of 2000 items`);
    expect(h.stderr.join("\n")).toContain("many answer cut to fit WORKFORCE_MAX_ANSWER_BYTES");
  });

  it("structured content alone over the limit: its array is shortened, the short text is kept", async () => {
    const h = await harness({ tools: testTools, config: { maxAnswerBytes: 8 * KB } });
    await h.client.listTools();
    const result = await h.client.callTool({
      name: "many",
      arguments: { count: 500, textLines: false },
    });
    expect(answerBytes(result)).toBeLessThanOrEqual(8 * KB);
    const [notice, summary, note] = textOf(result).split("\n");
    expect(notice).toBe(SANDBOX_NOTICE);
    expect(summary).toBe("500 items.");
    expect(note).toMatch(NOTE);
    expect(note).not.toContain("the text ends early");
    expect((result.structuredContent as ManyStructured).items.length).toBeLessThan(500);
  });

  it("a long structured string is cut when arrays are not enough, and still validates", async () => {
    const h = await harness({ tools: testTools, config: { maxAnswerBytes: 8 * KB } });
    await h.client.listTools();
    const result = await h.client.callTool({
      name: "many",
      arguments: { count: 0, noteLength: 100_000, textLines: false },
    });
    expect(answerBytes(result)).toBeLessThanOrEqual(8 * KB);
    const structured = result.structuredContent as ManyStructured;
    expect(structured.note.endsWith("…")).toBe(true);
    expect(textOf(result)).toMatch(/`note` is cut to \d+ of 100000 characters/);
  });

  it("if shortening would break the output schema, the structured content is sent whole", async () => {
    const h = await harness({ tools: testTools, config: { maxAnswerBytes: 8 * KB } });
    await h.client.listTools();
    const result = await h.client.callTool({ name: "strict", arguments: { length: 20_000 } });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { code: string }).code).toBe("x".repeat(20_000));
    expect(textOf(result).split("\n").at(-1)).toMatch(NOTE);
  });

  it("a long error result is cut too, and says what to do", async () => {
    const h = await harness({ tools: testTools, config: { maxAnswerBytes: 8 * KB } });
    const result = await h.client.callTool({ name: "refuses", arguments: { rows: 1000 } });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(8 * KB);
    expect(text).toContain("refuses failed: the platform rejected these arguments:");
    expect(text.split("\n").at(-1)).toMatch(
      /^\[Answer cut at [\d.]+ KB of [\d.]+ KB \(the text ends early\): the lines above say what to change\.\]$/,
    );
  });

  it("an 11.7 MB answer (5.6 MB of it text) reaches the real client cut to the default 128 KB", async () => {
    const h = await harness({ tools: testTools });
    expect(h.config.maxAnswerBytes).toBe(128 * KB);
    await h.client.listTools();
    const result = await h.client.callTool({
      name: "many",
      arguments: { count: 40_000, nameLength: 60 },
    });
    const bytes = answerBytes(result);
    console.log(`many (40,000 items): answer ${bytes} bytes; ${textOf(result).split("\n").at(-1)}`);
    expect(bytes).toBeLessThanOrEqual(128 * KB);
    expect(bytes).toBeGreaterThan(100 * KB);
    // The connection survived: the next call works.
    const next = await h.client.callTool({ name: "many", arguments: { count: 1 } });
    expect((next.structuredContent as ManyStructured).items).toHaveLength(1);
  });
});

describe("answer-budget helpers", () => {
  it("cutAtLine never splits a character and prefers a line break", () => {
    expect(cutAtLine("ab\ncd\nef", 7)).toBe("ab\ncd");
    expect(cutAtLine("éééé", 5)).toBe("é…");
    expect(cutAtLine("short", 100)).toBe("short");
  });

  it("fitAnswer leaves an answer within the budget alone", () => {
    const fitted = fitAnswer("text", '{"a":[1,2]}', 100);
    expect(fitted).toEqual({
      text: "text",
      structured: { a: [1, 2] },
      cut: false,
      originalBytes: 15,
      finalBytes: 15,
    });
  });
});

describe("a 1 MB argument value is not echoed whole", () => {
  const huge = `hire_${"x".repeat(MB)}`;

  it("get_contract", async () => {
    const h = await harness();
    const result = await h.client.callTool({ name: "get_contract", arguments: { hireId: huge } });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    console.log(`get_contract with a 1 MB hireId: ${Buffer.byteLength(text)} bytes of error text`);
    expect(Buffer.byteLength(text)).toBeLessThan(2 * KB);
    expect(text).toContain("argument `hireId`");
    expect(text).toContain(`… (${huge.length} characters)`);
  });

  it("terminate_hire", async () => {
    const h = await harness();
    const result = await h.client.callTool({
      name: "terminate_hire",
      arguments: { hireId: huge, reason: "PROJECT_COMPLETED_EARLY", date: "2026-12-31" },
    });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    console.log(
      `terminate_hire with a 1 MB hireId: ${Buffer.byteLength(text)} bytes of error text`,
    );
    expect(Buffer.byteLength(text)).toBeLessThan(2 * KB);
    expect(text).toContain("argument `hireId`");
  });

  it("a long value with spaces is bounded by the line guard", async () => {
    const h = await harness();
    const spaced = "hire x ".repeat(150_000);
    const result = await h.client.callTool({ name: "get_contract", arguments: { hireId: spaced } });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(Buffer.byteLength(text)).toBeLessThan(2 * KB);
    expect(text).toContain("argument `hireId`");
  });
});

describe("smallAndClean: an answer that needs no serializing", () => {
  const clean = (text: string) => !text.includes("pat-secret");
  const answer = { hires: [{ id: "hire_1", name: "Ana", rate: 725.5, active: true, end: null }] };

  it("is true for plain data whose JSON surely fits, and its bound is never below the real size", () => {
    const bytes = Buffer.byteLength(JSON.stringify(answer));
    expect(smallAndClean(answer, 10 * bytes, clean)).toBe(true);
    // Escapes at their worst: every character of a control string becomes \uXXXX.
    const controls = { note: "\u0001".repeat(100) };
    const real = Buffer.byteLength(JSON.stringify(controls));
    expect(smallAndClean(controls, real - 1, clean)).toBe(false);
    expect(smallAndClean(controls, real + 40, clean)).toBe(true);
  });

  it("is false when it may not fit, or when a value or a key holds a secret", () => {
    expect(smallAndClean(answer, 20, clean)).toBe(false);
    expect(smallAndClean({ hires: [{ note: "token pat-secret-1" }] }, 1e6, clean)).toBe(false);
    expect(smallAndClean({ "pat-secret-1": 1 }, 1e6, clean)).toBe(false);
  });

  it("is false for anything but plain data (it would serialize differently)", () => {
    expect(smallAndClean({ at: new Date(0) }, 1e6, clean)).toBe(false);
    expect(smallAndClean(new Map(), 1e6, clean)).toBe(false);
  });
});
