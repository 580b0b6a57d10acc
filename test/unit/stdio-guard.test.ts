import { describe, expect, it } from "vitest";
import {
  type OversizeMessage,
  requestId,
  StdinLineGuard,
} from "../../src/transports/stdio-guard.js";

/** Feeds the pieces through a guard and returns what came out and what was refused. */
async function through(limit: number, pieces: string[]) {
  const refused: OversizeMessage[] = [];
  const guard = new StdinLineGuard(limit, (m) => refused.push(m));
  const out: Buffer[] = [];
  guard.on("data", (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve) => guard.on("end", resolve));
  for (const piece of pieces) guard.write(Buffer.from(piece));
  guard.end();
  await ended;
  return { out: Buffer.concat(out).toString("utf8"), refused };
}

describe("StdinLineGuard", () => {
  it("passes lines within the limit through unchanged, however they are split", async () => {
    const { out, refused } = await through(20, ['{"a":', "1}\n{", '"b":2}\n', '{"c":3}\n']);
    expect(out).toBe('{"a":1}\n{"b":2}\n{"c":3}\n');
    expect(refused).toEqual([]);
  });

  it("drops a line over the limit, reports it once with its size, and keeps the next line", async () => {
    const big = `{"method":"x","params":"${"p".repeat(100)}","jsonrpc":"2.0","id":9}`;
    const { out, refused } = await through(50, [
      '{"id":1}\n',
      big.slice(0, 30),
      big.slice(30, 90),
      `${big.slice(90)}\n{"id":2}\n`,
    ]);
    expect(out).toBe('{"id":1}\n{"id":2}\n');
    expect(refused).toEqual([{ bytes: big.length, id: 9 }]);
  });

  it("accepts a line of exactly the limit and refuses one byte more", async () => {
    const { out, refused } = await through(10, ["0123456789\n", "0123456789a\n"]);
    expect(out).toBe("0123456789\n");
    expect(refused).toEqual([{ bytes: 11, id: undefined }]);
  });

  it("reports an oversize line that stdin ends inside", async () => {
    const cut = '{"jsonrpc":"2.0","id":3,"method":"m","params":';
    const { refused } = await through(5, [cut]);
    expect(refused).toEqual([{ bytes: cut.length, id: 3 }]);
  });
});

describe("requestId", () => {
  const pad = "x".repeat(600);
  it("reads the id from the start or the end of the top-level object", () => {
    expect(
      requestId(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"a":"${pad}`, ""),
    ).toBe(7);
    expect(
      requestId(
        `{"method":"tools/call","params":{"a":"${pad}`,
        `${pad}"},"jsonrpc":"2.0","id":"r-1"}`,
      ),
    ).toBe("r-1");
  });

  it("reads no id from a response, a notification or a nested object", () => {
    expect(requestId(`{"jsonrpc":"2.0","id":4,"result":{"a":"${pad}`, `${pad}"}}`)).toBeUndefined();
    expect(
      requestId(`{"jsonrpc":"2.0","method":"n","params":{"a":"${pad}`, `${pad}"}}`),
    ).toBeUndefined();
    expect(
      requestId(`{"method":"tools/call","params":{"a":"${pad}`, `${pad}","id":5}}`),
    ).toBeUndefined();
    expect(requestId(`{"method":"m","params":{"s":"${pad}`, `,\\"id\\":5}"}}`)).toBeUndefined();
    expect(requestId(`{"method":"m","id":1.5,"params":{`, "}")).toBeUndefined();
  });
});
