import * as z from "zod";
import {
  CHANGES_SCAN_LIMIT,
  type ChangesPage,
  changeLine,
  NO_RECEIVER,
  visibleChanges,
} from "../../client/changes-feed.js";
import { oneLine } from "../../client/platform-text.js";
import { CHANGES_URI } from "../../client/schema/uris.js";
import { defineTool, readOnlyAnnotations } from "../define-tool.js";
import { isRealDate, requestOptions } from "../format.js";
import { accountsOf, resolveAccounts, resolveHires } from "../known-ids.js";
import { hireEventOutput } from "../shapes/hire.js";

const EVENTS = ["contractAccepted", "hireTerminated", "hireCancelled", "hireEnded"] as const;
const DEFAULT_FIRST = 20;

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

/** `since` in ms: a date is its midnight UTC; a date-time needs its offset. */
function sinceMs(value: string): number | undefined {
  const day = value.slice(0, 10);
  if (day === value) return isRealDate(value) ? Date.parse(`${value}T00:00:00Z`) : undefined;
  if (!DATE_TIME.test(value) || !isRealDate(day)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

export const listChangesTool = defineTool({
  name: "list_changes",
  title: "List changes",
  toolset: "live",
  instruction: `list_changes says what changed since a moment, as the platform's webhooks reported it (contracts accepted, hires terminated, cancelled or ended), newest first, only for companies the person can read; ${CHANGES_URI} is the same feed as a resource to subscribe to.`,
  readme: {
    does: '"What changed since Monday?": contracts accepted, hires terminated, cancelled or ended, as the platform\'s webhooks told this server',
  },
  description: [
    "What changed on the platform since a moment, as its webhooks told this server: contracts accepted, hires terminated, cancelled or ended; newest first, with the hire, worker, company, contract and new status.",
    "Use when: what changed since yesterday, did Ana accept her contract, which hires ended this week.",
    "Do not use for: a hire's current state (use get_hire); finding hires (use search_hires).",
    "Returns: one line per event with when it was received; only companies you can read.",
    'Example: {"since":"2026-11-23","company":"214","event":"contractAccepted"}',
  ].join("\n"),
  inputSchema: {
    since: z
      .string()
      .refine((v) => sinceMs(v) !== undefined, {
        message: "must be a date (YYYY-MM-DD) or a date-time with its offset",
      })
      .optional()
      .describe(
        "Only events received at or after this: a date (its midnight UTC) or a date-time with offset, e.g. 2026-11-27T09:00:00Z. Default: all kept.",
      ),
    hireId: z
      .string()
      .min(1)
      .optional()
      .describe("Only events about this hire: its id (e.g. 48213) or the worker's name."),
    company: z.string().min(1).optional().describe("Only this company: its id or name."),
    event: z.enum(EVENTS).optional().describe("Only events of this kind."),
    first: z
      .number()
      .int()
      .min(1)
      .max(50)
      .optional()
      .describe(`Page size (default ${DEFAULT_FIRST}).`),
    page: z.number().int().min(1).optional().describe("Page, from 1."),
  },
  outputSchema: {
    changes: z.array(hireEventOutput),
    total: z.number(),
    page: z.number(),
    hasMore: z.boolean(),
    notes: z.array(z.string()),
  },
  annotations: readOnlyAnnotations,
  async handler(args, ctx) {
    const events = ctx.events;
    const team = ctx.teamChanges;
    if (!events && !team) {
      return {
        isError: true,
        structured: { changes: [], total: 0, page: 1, hasMore: false, notes: [NO_RECEIVER] },
        text: NO_RECEIVER,
      };
    }
    const options = requestOptions(ctx);
    const notes: string[] = [];
    let companyId: string | undefined;
    if (args.company !== undefined) {
      const resolved = await resolveAccounts(ctx, [args.company], "company");
      companyId = resolved.ids?.[0];
      notes.push(...resolved.notes);
    }
    // A hire id that matches nothing is an error, not "no changes"; a worker's name finds the hire.
    let hireId = args.hireId;
    if (hireId !== undefined) {
      const resolved = await resolveHires(ctx, [hireId], "hireId");
      hireId = resolved.ids?.[0];
      notes.push(...resolved.notes);
    }
    const first = args.first ?? DEFAULT_FIRST;
    const page = args.page ?? 1;
    const since = args.since === undefined ? undefined : sinceMs(args.since);
    const query = { since, hireId, companyId, event: args.event };
    const range = { offset: (page - 1) * first, limit: first };
    let found: ChangesPage;
    let keptDays = ctx.config.webhookRetentionDays;
    if (team) {
      // The team server filters for this person's own credential; nothing else reaches here.
      const answer = await team.read(query, range, ctx.signal);
      if (!answer.ok) {
        return {
          isError: true,
          structured: { changes: [], total: 0, page, hasMore: false, notes: [answer.message] },
          text: answer.message,
        };
      }
      found = answer.page;
      keptDays = answer.page.retentionDays;
    } else {
      const accounts = new Set((await accountsOf(ctx)).map((a) => a.id));
      found = await visibleChanges(
        {
          client: ctx.client,
          store: ctx.store,
          events: events as NonNullable<typeof events>,
          options,
        },
        accounts,
        query,
        range,
      );
    }
    const hasMore = page * first < found.total;
    if (found.capped) {
      notes.push(
        `Only the newest ${CHANGES_SCAN_LIMIT} matching events were looked at; give a later since for older ones.`,
      );
    }
    const lines: string[] = [];
    if (found.total === 0) {
      lines.push(
        `No changes${args.since ? ` since ${oneLine(args.since)}` : ""} for the companies you can read${companyId || args.hireId || args.event ? " with these filters" : ""}. Events are kept ${keptDays} days.`,
      );
      // Without a configured secret, events come only from webhooks this server registered.
      if (!team && ctx.config.webhookSecrets.length === 0) {
        lines.push(
          "No WORKFORCE_WEBHOOK_SECRETS is set here: events arrive only for webhooks registered with manage_webhooks (live toolset).",
        );
      }
    } else {
      const from = (page - 1) * first + 1;
      const to = from + found.changes.length - 1;
      lines.push(
        found.changes.length === 0
          ? `Page ${page} is past the end: ${found.total} change${found.total === 1 ? "" : "s"} in all.`
          : `${from}–${to} of ${found.total} change${found.total === 1 ? "" : "s"}, newest first${hasMore ? `; ask for page ${page + 1} for more` : ""}:`,
      );
      lines.push(...found.changes.map(changeLine));
    }
    lines.push(...notes);
    return {
      structured: { changes: found.changes, total: found.total, page, hasMore, notes },
      text: lines.join("\n"),
    };
  },
});
