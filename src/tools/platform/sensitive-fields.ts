// Fields query_platform never asks for: secrets someone could use to act as the company or its
// people, and numbers that identify a person or reach their money. Chosen from the real schema
// (test/tools/query-platform.test.ts checks every pair still exists there). A field on an
// interface or union member counts wherever it is selected.

export interface SensitiveField {
  type: string;
  field: string;
  /** Why, in a few words the refusal repeats. */
  reason: string;
}

export const SENSITIVE_FIELDS: readonly SensitiveField[] = [
  // Secrets: whoever holds them can sign, sign in or accept an invitation.
  { type: "Webhook", field: "secret", reason: "the webhook's signing secret" },
  { type: "Webhook", field: "clientSecret", reason: "the webhook's OAuth client secret" },
  { type: "TotpCreateMultiFactorPayload", field: "secret", reason: "a sign-in (TOTP) secret" },
  {
    type: "TotpCreateMultiFactorPayload",
    field: "qrCode",
    reason: "holds a sign-in (TOTP) secret",
  },
  { type: "Client", field: "token", reason: "an invitation token" },
  { type: "CompanyRecruiter", field: "token", reason: "an invitation token" },
  { type: "RecruiterCandidate", field: "token", reason: "an invitation token" },
  { type: "SupplierCandidate", field: "token", reason: "an invitation token" },
  { type: "Query", field: "multiFactor", reason: "sign-in security settings" },
  { type: "Query", field: "multiFactors", reason: "sign-in security settings" },
  { type: "SmsMultiFactor", field: "phoneNumber", reason: "the phone number for sign-in codes" },
  // Bank accounts.
  { type: "ComplianceDataBankDetail", field: "bankDetail", reason: "bank account details" },
  { type: "BankDetail", field: "iban", reason: "a bank account number (IBAN)" },
  { type: "BankDetail", field: "swift", reason: "bank account details (SWIFT)" },
  { type: "BankDetail", field: "bban", reason: "a bank account number (BBAN)" },
  { type: "Bban", field: "accountNumber", reason: "a bank account number" },
  // Identity documents and national identifiers.
  { type: "Worker", field: "identification", reason: "identity document details" },
  { type: "WorkerIdentification", field: "documentNumber", reason: "an identity document number" },
  { type: "WorkerIdentification", field: "dateOfBirth", reason: "a date of birth" },
  { type: "BusinessEntity", field: "taxNumber", reason: "a tax number" },
  {
    type: "BusinessEntity",
    field: "nationalIdentifier",
    reason: "a national identifier (e.g. a SIN)",
  },
];

const byKey = new Map(SENSITIVE_FIELDS.map((f) => [`${f.type}.${f.field}`, f]));

/** The entry for `type.field`, if query_platform refuses it. */
export function sensitiveField(type: string, field: string): SensitiveField | undefined {
  return byKey.get(`${type}.${field}`);
}
