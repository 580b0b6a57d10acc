/// <reference lib="dom" />
// A host page for MCP Apps views, built on the ext-apps SDK's own host side (AppBridge and its
// PostMessageTransport), as a client that renders Apps would run it. Bundled for the browser by
// test/helpers/apps.ts. The view's tool calls go to window.callServerTool, which the test binds to
// a real SDK client connected to the server; what the view tells the model is kept in
// window.modelContext.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

interface HostWindow {
  callServerTool(params: unknown): Promise<unknown>;
  modelContext: unknown[];
  showView(html: string, toolInput: unknown, toolResult: unknown): Promise<void>;
}

const host = window as unknown as HostWindow;
host.modelContext = [];

host.showView = async (html, toolInput, toolResult) => {
  const frame = document.createElement("iframe");
  // Scripts only: an opaque origin with no access to this page, as hosts sandbox views.
  frame.setAttribute("sandbox", "allow-scripts");
  frame.style.cssText = "width:100%;height:100vh;border:0";
  frame.srcdoc = html;
  document.body.replaceChildren(frame);
  const view = frame.contentWindow as Window;
  const bridge = new AppBridge(
    null,
    { name: "workforce-mcp test host", version: "1.0.0" },
    { serverTools: {}, updateModelContext: { text: {} } },
  );
  bridge.oncalltool = async (params) =>
    (await host.callServerTool(params)) as Awaited<
      ReturnType<NonNullable<AppBridge["oncalltool"]>>
    >;
  bridge.onupdatemodelcontext = async (params) => {
    host.modelContext.push(params);
    return {};
  };
  const ready = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  await bridge.connect(new PostMessageTransport(view, view));
  await ready;
  await bridge.sendToolInput({ arguments: toolInput as Record<string, unknown> });
  await bridge.sendToolResult(toolResult as Parameters<AppBridge["sendToolResult"]>[0]);
};
