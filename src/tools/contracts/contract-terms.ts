// A contract's terms as every tool that shows them gives them: one shape, so they read alike.
import * as z from "zod";

/** Job, dates, currency and rate; fresh schemas for each object that spreads them. */
export const contractTerms = () => ({
  jobName: z.string(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  currency: z.string(),
  /** Null when the platform hides rates from this account. */
  rate: z.number().nullable(),
  rateType: z.string().nullable(),
});
