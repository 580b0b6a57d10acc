// An https server on 127.0.0.1 for Client ID Metadata Documents, with a certificate made for the
// test (openssl) under a name only the test's resolver knows: a fetch that succeeds also shows the
// checked address was the one connected to.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ClientMetadataOptions } from "../../src/auth/remote/client-metadata.js";

export const DOCUMENT_HOST = "client.test";

type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface DocumentServer {
  /** https://client.test:<port> */
  base: string;
  /** The certificate, to trust as the only CA. */
  ca: string;
  routes: Map<string, Route>;
  hitsOf(path: string): number;
  /** Serves `body` as JSON at `path`, with these headers; returns its URL. */
  serve(path: string, body: unknown, headers?: Record<string, string>): string;
  /** Fetch options for this test's world: client.test is 127.0.0.1, which may be fetched. */
  fetchOptions(): ClientMetadataOptions;
  reset(): void;
  close(): Promise<void>;
}

export async function startDocumentServer(): Promise<DocumentServer> {
  const dir = mkdtempSync(join(tmpdir(), "cimd-"));
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
      ...["-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "1"],
      ...["-subj", `/CN=${DOCUMENT_HOST}`, "-addext", `subjectAltName=DNS:${DOCUMENT_HOST}`],
    ],
    { stdio: "ignore" },
  );
  const ca = readFileSync(join(dir, "cert.pem"), "utf8");
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const hitsOf = (path: string) => hits.get(path) ?? 0;
  const server = createServer({ key: readFileSync(join(dir, "key.pem")), cert: ca }, (req, res) => {
    const path = req.url ?? "";
    hits.set(path, hitsOf(path) + 1);
    const route = routes.get(path);
    if (route) route(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `https://${DOCUMENT_HOST}:${(server.address() as AddressInfo).port}`;
  return {
    base,
    ca,
    routes,
    hitsOf,
    serve(path, body, headers = {}) {
      routes.set(path, (_req, res) => {
        res
          .writeHead(200, { "content-type": "application/json", ...headers })
          .end(typeof body === "string" ? body : JSON.stringify(body));
      });
      return `${base}${path}`;
    },
    fetchOptions: () => ({
      resolve: async (hostname) => {
        if (hostname === DOCUMENT_HOST) return [{ address: "127.0.0.1", family: 4 }];
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
      },
      allowAddress: (address) => address === "127.0.0.1",
      ca,
    }),
    reset() {
      routes.clear();
      hits.clear();
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
