// The records toolset's changes to existing records: a payment request's purchase-order number and
// comments (update_payment_request), and the custom field values on a talent-pool contact
// (update_talent_contact), with the reads each previews and reads back with.
import type {
  PaymentRequestForUpdateQuery,
  TalentContactForUpdateQuery,
} from "../operation-types.generated.js";
import { mutation, query } from "./define.js";
import { PAYMENT_REQUEST_FOR_UPDATE_FIELDS } from "./payments.js";

/** A payment request as update_payment_request previews it and reads it back. */
export type PaymentRequestForUpdate = NonNullable<PaymentRequestForUpdateQuery["paymentRequest"]>;

export const paymentRequestForUpdateQuery = query(
  "PaymentRequestForUpdate",
  /* GraphQL */ `
    query PaymentRequestForUpdate($id: ID!) {
      paymentRequest(id: $id) {${PAYMENT_REQUEST_FOR_UPDATE_FIELDS}}
    }
  `,
);

export const updatePaymentRequestMutation = mutation(
  "UpdatePaymentRequest",
  /* GraphQL */ `
    mutation UpdatePaymentRequest($input: UpdatePaymentRequestInput!) {
      updatePaymentRequest(input: $input) {${PAYMENT_REQUEST_FOR_UPDATE_FIELDS}}
    }
  `,
  // Setting the same values twice leaves the same record, but the answer of a lost one is read
  // back instead: another change may have come in between.
  "changes",
);

const CONTACT_FIELDS = `
  id
  status
  company {
    id
    name
  }
  worker {
    id
    name
    email
  }
  customFieldValues {
    customField {
      id
    }
    customFieldOption {
      id
    }
    displayValue
  }
`;

/** A talent-pool contact with its custom field values, as update_talent_contact shows it. */
export type TalentContactForUpdate = NonNullable<TalentContactForUpdateQuery["trustedContact"]>;

export const talentContactForUpdateQuery = query(
  "TalentContactForUpdate",
  /* GraphQL */ `
    query TalentContactForUpdate($id: ID!) {
      trustedContact(id: $id) {${CONTACT_FIELDS}}
    }
  `,
);

/** Contacts whose name or email contains `search`, for finding one by a person's name or email. */
export const talentContactsForUpdateQuery = query(
  "TalentContactsForUpdate",
  /* GraphQL */ `
    query TalentContactsForUpdate($search: String!) {
      trustedContacts(search: $search, first: 25) {
        data {${CONTACT_FIELDS}}
      }
    }
  `,
);

/** A company's custom fields on talent-pool records: what can be set, of which type, with options. */
export const talentContactCustomFieldsQuery = query(
  "TalentContactCustomFields",
  /* GraphQL */ `
    query TalentContactCustomFields($company: ID!) {
      customFields(accounts: [$company], appliesTo: [TRUSTED_CONTACT], first: 100) {
        data {
          id
          title
          slug
          fieldType
          account {
            id
          }
          settings {
            validation
          }
          customFieldOptions {
            id
            value
            displayOrder
          }
        }
      }
    }
  `,
);

export const updateTrustedContactMutation = mutation(
  "UpdateTrustedContact",
  /* GraphQL */ `
    mutation UpdateTrustedContact($input: UpdateTrustedContactInput!) {
      updateTrustedContact(input: $input) {${CONTACT_FIELDS}}
    }
  `,
  "changes",
);
