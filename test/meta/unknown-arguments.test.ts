// Every tool refuses an argument its input schema does not have, naming the closest one it has,
// before anything reaches the platform: a misspelled filter dropped in silence answers a question
// nobody asked (issue 31). Called through a real SDK client, with every toolset listed.
import { describe, expect, it } from "vitest";
import { TOOLSETS } from "../../src/config/defaults.js";
import { tools } from "../../src/tools/registry.js";
import { callTool, useSharedHarness } from "../helpers/tool-calls.js";

/** The tool's longest argument name (the one least likely to have a near sibling). */
function longestArgument(shape: Record<string, unknown>): string | undefined {
  return Object.keys(shape).sort((a, b) => b.length - a.length)[0];
}

/** `name` with one letter from its middle left out: a typo one edit away. */
function nearMiss(name: string): string {
  const middle = Math.floor(name.length / 2);
  return name.slice(0, middle) + name.slice(middle + 1);
}

describe("an argument a tool does not have", () => {
  const h = useSharedHarness({
    config: { toolsets: [...TOOLSETS], publicUrl: "http://127.0.0.1:39871" },
  });

  it.each(tools.map((tool) => [tool.name, tool] as const))(
    "%s refuses it, names the closest argument it has, and sends nothing",
    async (name, tool) => {
      const before = h().sandbox.requests.length;
      const real = longestArgument(tool.inputSchema);
      const typo = real ? nearMiss(real) : "filter";
      const { r, text } = await callTool(h(), name, { [typo]: "x" });
      expect(r.isError, text).toBe(true);
      expect(text).toContain(
        real
          ? `\`${typo}\` is not an argument of ${name}; did you mean \`${real}\`?`
          : `\`${typo}\` is not an argument of ${name}: it takes no arguments.`,
      );
      expect(text).toContain("nothing was sent");
      expect(h().sandbox.requests.length).toBe(before);
    },
  );
});
