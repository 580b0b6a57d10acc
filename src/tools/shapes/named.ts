import * as z from "zod";

/** A record another one points to, by id and name: a worker, a company. */
export const idAndName = z.object({ id: z.string(), name: z.string() });

export const toIdAndName = (r: { id: string; name: string }) => ({ id: r.id, name: r.name });

/** A record another one points to, by id and status: a hire, a bid. */
export const idAndStatus = z.object({ id: z.string(), status: z.string() });

export const toIdAndStatus = (r: { id: string; status: string }) => ({
  id: r.id,
  status: r.status,
});

/** A worker as most tools show one: the email when the platform shows it. */
export const workerWithEmail = idAndName.extend({ email: z.string().nullable() });

export const toWorkerWithEmail = (w: { id: string; name: string; email: string | null }) => ({
  ...toIdAndName(w),
  email: w.email,
});

/** A user of the platform (the signed-in person, a hire's owner): their account's email. */
export const userOutput = idAndName.extend({ email: z.string() });

export const toUser = (u: { id: string; name: string; email: string }) => ({
  ...toIdAndName(u),
  email: u.email,
});

/** As an event names a record: what it says, each part null where it says nothing. */
export const idAndNameIfSaid = z.object({ id: z.string().nullable(), name: z.string().nullable() });
