// Custom field values given with a new hire (HireInput.customFieldValues), checked the platform's
// way and stored on the hire's draft contract, where get_hire reads them. The schema: "Passing an
// empty array `[]` will skip custom field syncing entirely. If you have required custom fields
// configured, you must provide values for them or validation will fail."

import type { ValidationCollector } from "../../errors.js";
import type {
  CustomFieldTypeValueInput,
  FreeTextCustomFieldValueInput,
  MultiSelectCustomFieldValueInput,
  SingleSelectCustomFieldValueInput,
} from "../../resolver-types.generated.js";
import type { SandboxData } from "../../seed/index.js";
import { type CustomFieldRecord, hireDetailsOf } from "./seed.js";

/** One checked value, ready to store. */
export interface CheckedCustomFieldValue {
  fieldId: string;
  optionId: string | null;
  content: string | null;
}

const TYPE_OF_MEMBER: Record<PickedEntry["member"], CustomFieldRecord["fieldType"] | string> = {
  singleSelect: "SINGLE_SELECT",
  freeText: "FREE_TEXT",
  multiSelect: "MULTI_SELECT",
};

/** The one member an entry gives, and its value. */
type GivenMember =
  | { member: "singleSelect"; value: SingleSelectCustomFieldValueInput }
  | { member: "freeText"; value: FreeTextCustomFieldValueInput }
  | { member: "multiSelect"; value: MultiSelectCustomFieldValueInput };

/** A checked entry: the field it names, and the member it gives. */
export type PickedEntry = GivenMember & { field: CustomFieldRecord };

function membersOf(entry: CustomFieldTypeValueInput): GivenMember[] {
  const given: GivenMember[] = [];
  if (entry.singleSelect != null) given.push({ member: "singleSelect", value: entry.singleSelect });
  if (entry.freeText != null) given.push({ member: "freeText", value: entry.freeText });
  if (entry.multiSelect != null) given.push({ member: "multiSelect", value: entry.multiSelect });
  return given;
}

/**
 * One entry of a CustomFieldTypeValueInput list, checked the platform's way: exactly one member
 * given, naming (by id or slug) one of `fields`, of that member's type, not given before in the
 * list (`seen`, which it adds to). Problems go to `v`; the entry is then undefined.
 */
export function pickCustomFieldEntry(
  fields: readonly CustomFieldRecord[],
  entry: CustomFieldTypeValueInput,
  at: string,
  v: ValidationCollector,
  seen: Set<string>,
): PickedEntry | undefined {
  const [given, ...more] = membersOf(entry);
  if (given === undefined || more.length > 0) {
    v.add(at, "Exactly one of singleSelect, freeText, multiSelect or fileUpload must be given.");
    return undefined;
  }
  const { member, value } = given;
  const field = fields.find(
    (f) => (value.id != null && f.id === value.id) || (value.slug != null && f.slug === value.slug),
  );
  if (!field) {
    v.add(`${at}.${member}.id`, "The selected custom field is invalid.");
    return undefined;
  }
  if (field.fieldType !== TYPE_OF_MEMBER[member]) {
    v.add(`${at}.${member}`, `The custom field ${field.title} is a ${field.fieldType} field.`);
    return undefined;
  }
  if (seen.has(field.id)) {
    v.add(`${at}.${member}.id`, `The custom field ${field.title} is given more than once.`);
    return undefined;
  }
  seen.add(field.id);
  return { ...given, field };
}

/**
 * Checks `input.customFieldValues` against the company's contract fields; problems go to `v`.
 * Null or an empty list means "leave custom fields alone" and gives no values.
 */
export function checkHireCustomFieldValues(
  data: SandboxData,
  companyId: string,
  raw: readonly CustomFieldTypeValueInput[] | null | undefined,
  v: ValidationCollector,
): CheckedCustomFieldValue[] {
  if (!raw || raw.length === 0) return [];
  const fields = hireDetailsOf(data).customFields.filter(
    (f) => f.companyId === companyId && f.appliesTo === "CONTRACT",
  );
  const checked: CheckedCustomFieldValue[] = [];
  const seen = new Set<string>();
  raw.forEach((entry, i) => {
    const at = `input.customFieldValues.${i}`;
    const picked = pickCustomFieldEntry(fields, entry, at, v, seen);
    if (!picked) return;
    const { field } = picked;
    if (picked.member === "singleSelect") {
      const { value } = picked.value;
      if (value === null || value === undefined) return;
      const option = field.options.find((o) => o.id === value);
      if (!option) {
        v.add(`${at}.singleSelect.value`, `The selected option for ${field.title} is invalid.`);
        return;
      }
      checked.push({ fieldId: field.id, optionId: option.id, content: null });
    } else if (picked.member === "freeText") {
      const { value } = picked.value;
      if (typeof value !== "string" || value.trim() === "") return;
      checked.push({ fieldId: field.id, optionId: null, content: value });
    }
  });
  for (const field of fields) {
    if (field.validation.includes("REQUIRED") && !checked.some((c) => c.fieldId === field.id)) {
      v.add("input.customFieldValues", `The ${field.title} field is required.`);
    }
  }
  return checked;
}

/**
 * What the platform records with a new hire beyond the core: the custom field values on its
 * contract, and the caller as owner ("If not provided, the authenticated user will be set").
 */
export function recordNewHireDetails(
  data: SandboxData,
  hire: { hireId: string; contractId: string; userId: string },
  values: CheckedCustomFieldValue[],
): void {
  const details = hireDetailsOf(data);
  details.owners.set(hire.hireId, [hire.userId]);
  for (const value of values) {
    details.customFieldValues.push({
      id: newCustomFieldValueId(data),
      ...value,
      on: "Contract",
      targetId: hire.contractId,
      userId: hire.userId,
    });
  }
}

/** An id no stored custom field value has: the next free `cfv_NNNN` past their count. */
export function newCustomFieldValueId(data: SandboxData): string {
  const values = hireDetailsOf(data).customFieldValues;
  const ids = new Set(values.map((x) => x.id));
  let n = values.length;
  let id: string;
  do {
    n += 1;
    id = `cfv_${String(n).padStart(4, "0")}`;
  } while (ids.has(id));
  return id;
}
