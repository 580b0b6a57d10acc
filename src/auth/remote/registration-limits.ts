// Dynamic client registration (RFC 7591) needs no sign-in, so what it may store is bounded: a
// registration's size, how many one address group may make, and how many all of them together may
// make, counted in the shared state store so that every replica counts the same. The total never
// shuts out a newcomer: an address group's first registration of the day is not counted against
// it, so strangers who spend the total lock out only themselves. A registration no sign-in used is
// forgotten within a day (provider.ts). Client ID Metadata Documents need no registration at all
// and are the preferred way in (MCP authorization, 2025-11-25).
import type { NextFunction, Request, Response } from "express";
import express from "express";
import type { StateStore } from "../../state/store.js";
import { addressKey, clientAddress } from "./address-key.js";

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

const REGISTRATION_LIMITS = {
  /** Bytes of JSON one registration may have. */
  maxBytes: 4_096,
  /** Registrations one address group (clientAddress) may make in an hour. */
  perAddressPerHour: 10,
  /** Registrations all address groups together may make in a day, beyond each one's first. */
  totalPerDay: 1_000,
} as const;

export type RegistrationLimits = { -readonly [K in keyof typeof REGISTRATION_LIMITS]: number };

function refuse(res: Response, status: number, error: string, description: string) {
  // As the SDK's registration answers: readable by clients that run in a browser.
  res
    .status(status)
    .set({ "cache-control": "no-store", "access-control-allow-origin": "*" })
    .json({ error, error_description: description });
}

/** Express handlers for POST /register, to mount before the SDK's router. */
export function registrationLimits(
  state: StateStore,
  limits: RegistrationLimits = { ...REGISTRATION_LIMITS },
) {
  const parse = express.json({ limit: limits.maxBytes });
  return [
    (req: Request, res: Response, next: NextFunction) => {
      parse(req, res, (error?: unknown) => {
        if (!error) return next();
        const tooLarge = (error as { type?: string }).type === "entity.too.large";
        refuse(
          res,
          tooLarge ? 413 : 400,
          "invalid_client_metadata",
          tooLarge
            ? `A registration may have at most ${limits.maxBytes} bytes of JSON.`
            : "The registration is not valid JSON.",
        );
      });
    },
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        const address = addressKey(clientAddress(req));
        const refused = async (key: string, limit: number, windowMs: number, refusal: string) => {
          const wait = await state.claimWindowSlot(key, limit, windowMs);
          if (wait > 0) {
            res.set("retry-after", String(Math.ceil(wait / 1000)));
            refuse(res, 429, "too_many_requests", refusal);
          }
          return wait > 0;
        };
        if (
          await refused(
            `oauth-register:address:${address}`,
            limits.perAddressPerHour,
            HOUR,
            `This address registered ${limits.perAddressPerHour} clients in the last hour, the most allowed. Reuse a registration, or use a Client ID Metadata Document.`,
          )
        ) {
          return;
        }
        // In this order: an address over its share uses up nothing of the total, and its first
        // registration of the day none either.
        const first =
          (await state.claimWindowSlot(`oauth-register:first:${address}`, 1, DAY)) === 0;
        if (
          !first &&
          (await refused(
            "oauth-register:all",
            limits.totalPerDay,
            DAY,
            "This server takes no more new registrations today from addresses that already registered one today. Clients that registered before, and clients with a Client ID Metadata Document, can still sign in.",
          ))
        ) {
          return;
        }
        next();
      } catch (error) {
        next(error);
      }
    },
  ];
}
