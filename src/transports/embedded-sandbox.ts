import type { SandboxInfo } from "../server.js";

/** What the instructions say about the sandbox's tokens, so the assistant knows who it acts as. */
export function sandboxInfo(): SandboxInfo {
  return {
    identities: [
      "The sandbox's full token acts as a company administrator who may see everything and make changes.",
      "The sandbox's limited token acts as a user who may not see rates or make changes.",
    ],
  };
}
