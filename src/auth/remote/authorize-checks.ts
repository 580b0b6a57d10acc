// Checks an authorization request (GET or POST /authorize) completely before the SDK's handler
// sees it. The SDK sends the browser straight back to the client's redirect URL with an error when
// anything past the client and redirect URL is wrong; since anyone may register a client with any
// redirect URL, that would make this server an open redirector (RFC 9700 §4.11.1). Here every
// problem is shown on this server's own page, and the SDK is handed only requests it will turn
// into the consent page. Nothing goes back to a client before the person has seen that page.
// A client_id that is a Client ID Metadata Document URL makes this server look up a host and fetch
// from it, for anyone who asks; such requests are counted per address group in the shared store
// first, and refused beyond the limit before any look-up (MCP security best practices, SSRF).
import type { OAuthClientInformationFull } from "@modelcontextprotocol/server";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/server-legacy/auth";
import { OAuthError, redirectUriMatches } from "@modelcontextprotocol/server-legacy/auth";
import express, { type NextFunction, type Request, type Response } from "express";
import type { StateStore } from "../../state/store.js";
import { escapeHtml, sendPage } from "../../web/pages.js";
import { addressKey, clientAddress } from "./address-key.js";
import { isClientIdMetadataUrl } from "./client-metadata.js";
import { quoted } from "./redirect-uris.js";

/** Authorization requests naming a Client ID Metadata Document, per address group. */
const DOCUMENT_REQUESTS = { limit: 10, windowMs: 60_000 } as const;

/** Set on res.locals for the provider: whether the request named its redirect URL itself. */
export interface AuthorizeLocals {
  redirectUriGiven?: boolean;
}

export interface AuthorizeChecksOptions {
  clients: OAuthRegisteredClientsStore;
  /** Whether a resource indicator names this server (RFC 8707). */
  isOurResource(resource: string): boolean;
  /** A redirect URL's problem under this server's rules, or undefined when it may be used. */
  redirectUriProblem(uri: string): string | undefined;
  /** Where requests naming a metadata document are counted (shared by the replicas). */
  state: StateStore;
}

class Refusal extends Error {}

const param = (source: unknown, name: string): string | undefined => {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  if (Array.isArray(value)) throw new Refusal(`the parameter ${name} is given more than once.`);
  return typeof value === "string" ? value : undefined;
};

/** Express handlers for /authorize, to mount before the SDK's router. */
export function authorizeChecks(options: AuthorizeChecksOptions) {
  async function check(req: Request, res: Response, next: NextFunction) {
    if (req.method !== "GET" && req.method !== "POST") return next();
    const source = req.method === "POST" ? req.body : req.query;
    let client: OAuthClientInformationFull | undefined;
    try {
      const clientId = param(source, "client_id");
      if (!clientId) throw new Refusal("it names no application (client_id is missing).");
      if (isClientIdMetadataUrl(clientId)) {
        const wait = await options.state.claimWindowSlot(
          `oauth-authorize-document:${addressKey(clientAddress(req))}`,
          DOCUMENT_REQUESTS.limit,
          DOCUMENT_REQUESTS.windowMs,
        );
        if (wait > 0) {
          const seconds = String(Math.ceil(wait / 1000));
          return sendPage(
            res,
            429,
            "Too many sign-ins from your address",
            `<p>Your address started ${DOCUMENT_REQUESTS.limit} sign-ins with applications described by a metadata document within a minute, the most allowed. Nothing was sent back to the application. Wait ${seconds} seconds, then start the sign-in again from your assistant.</p>`,
            { "retry-after": seconds },
          );
        }
      }
      try {
        client = await options.clients.getClient(clientId);
      } catch (error) {
        // A Client ID Metadata Document that could not be used says why.
        if (error instanceof OAuthError && error.errorCode === "invalid_client") {
          throw new Refusal(error.message);
        }
        throw error;
      }
      if (!client) {
        throw new Refusal(
          "the application is not registered with this server, or its registration expired. Connect it again from your assistant.",
        );
      }
      const given = param(source, "redirect_uri");
      const registered = client.redirect_uris;
      const redirectUri =
        given ?? (registered.length === 1 ? (registered[0] as string) : undefined);
      if (redirectUri === undefined) {
        throw new Refusal("it does not say where to return (redirect_uri is missing).");
      }
      if (given !== undefined && !registered.some((r) => redirectUriMatches(given, r))) {
        throw new Refusal(
          `the return address ${quoted(given, 300)} is not one the application registered.`,
        );
      }
      const problem = options.redirectUriProblem(redirectUri);
      if (problem) throw new Refusal(`the return address ${quoted(redirectUri, 300)} ${problem}`);
      if (param(source, "response_type") !== "code") {
        throw new Refusal("only the authorization code flow is offered (response_type=code).");
      }
      if (!param(source, "code_challenge") || param(source, "code_challenge_method") !== "S256") {
        throw new Refusal("it lacks PKCE with S256 (code_challenge and code_challenge_method).");
      }
      const resource = param(source, "resource");
      if (resource !== undefined && !options.isOurResource(resource)) {
        throw new Refusal(
          `it asks for access to ${quoted(resource, 300)}, and this server issues access only to itself.`,
        );
      }
      (res.locals as AuthorizeLocals).redirectUriGiven = given !== undefined;
    } catch (error) {
      if (!(error instanceof Refusal)) return next(error);
      return sendPage(
        res,
        400,
        "This sign-in cannot continue",
        [
          `<p>The sign-in request${client?.client_name ? ` from <strong>${escapeHtml(client.client_name)}</strong>` : ""} cannot be used: ${escapeHtml(error.message)}</p>`,
          "<p>Nothing was sent back to the application. Start the sign-in again from your assistant; if this keeps happening, the application's set-up needs fixing.</p>",
        ].join("\n"),
      );
    }
    next();
  }
  return [
    express.urlencoded({ extended: false, limit: "16kb" }),
    (req: Request, res: Response, next: NextFunction) => {
      check(req, res, next).catch(next);
    },
  ];
}
