import type { SandboxDomain } from "../domain.js";

/** Every domain the sandbox serves beyond its core (accounts, hires, contracts, invoices). */
export const SANDBOX_DOMAINS: readonly SandboxDomain[] = [];
