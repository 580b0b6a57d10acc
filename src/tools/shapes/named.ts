import * as z from "zod";

/** A record another one points to, by id and name: a worker, a company. */
export const idAndName = z.object({ id: z.string(), name: z.string() });

/** As an event names a record: what it says, each part null where it says nothing. */
export const idAndNameIfSaid = z.object({ id: z.string().nullable(), name: z.string().nullable() });
