import * as z from "zod";

/** A record another one points to, by id and name: a worker, a company. */
export const idAndName = z.object({ id: z.string(), name: z.string() });
