// A custom field's value as the tools show it: which field, its title, and the value as the
// platform displays it.
import * as z from "zod";

/** As create_draft_hire shows the values it set. */
export const fieldValueOutput = z.object({
  fieldId: z.string(),
  title: z.string(),
  value: z.string(),
});
export type FieldValueOut = z.infer<typeof fieldValueOutput>;

/** As update_talent_contact shows the values it read back: null where the field is now empty. */
export const fieldValueOrNoneOutput = fieldValueOutput.extend({ value: z.string().nullable() });
