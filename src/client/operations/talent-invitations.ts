// Inviting people into a company's talent pool, for invite_to_talent_pool: the look-ups before an
// invitation (is the email already in the pool? may we re-invite?), the two mutations, and the
// read-back of an invitation by the external identifier it was sent with.
import type { CreateTrustedContactMutation } from "../operation-types.generated.js";
import { mutation, query } from "./define.js";

/**
 * A talent pool contact. invitedAt is a date (YYYY-MM-DD) a re-invitation on a later day moves;
 * externalIdentifier is set by this server's invitations, to find the contact after a lost answer.
 */
export type InvitedContact = CreateTrustedContactMutation["createTrustedContact"];

const CONTACT_FIELDS = `
  id
  status
  invitedAt
  externalIdentifier
  company {
    id
    name
  }
  worker {
    id
    name
    email
  }
  skills {
    id
    name
  }
`;

/** Contacts of one company whose name or email contains `email`; the tool keeps exact matches. */
export const poolContactsByEmailQuery = query(
  "PoolContactsByEmail",
  /* GraphQL */ `
    query PoolContactsByEmail($company: ID!, $email: String!) {
      trustedContacts(accounts: [$company], search: $email, first: 25) {
        data {${CONTACT_FIELDS}}
      }
    }
  `,
);

/** The contact an invitation created, by the external identifier it was sent with. */
export const poolContactsByExternalIdQuery = query(
  "PoolContactsByExternalId",
  /* GraphQL */ `
    query PoolContactsByExternalId($company: ID!, $externalIdentifier: String!) {
      trustedContacts(accounts: [$company], externalIdentifiers: [$externalIdentifier], first: 5) {
        data {${CONTACT_FIELDS}}
      }
    }
  `,
);

/** A worker's contacts in one company's pool: a worker id given where a contact id belongs. */
export const poolContactsByWorkerQuery = query(
  "PoolContactsByWorker",
  /* GraphQL */ `
    query PoolContactsByWorker($company: ID!, $worker: ID!) {
      trustedContacts(accounts: [$company], workers: [$worker], first: 5) {
        data {${CONTACT_FIELDS}}
      }
    }
  `,
);

/** Contacts whose name or email contains `search`: a person named where a contact id belongs. */
export const poolContactsBySearchQuery = query(
  "PoolContactsBySearch",
  /* GraphQL */ `
    query PoolContactsBySearch($accounts: [ID!], $search: String!) {
      trustedContacts(accounts: $accounts, search: $search, first: 25) {
        paginatorInfo {
          hasMorePages
        }
        data {${CONTACT_FIELDS}}
      }
    }
  `,
);

export const trustedContactQuery = query(
  "TrustedContact",
  /* GraphQL */ `
    query TrustedContact($id: ID!) {
      trustedContact(id: $id) {${CONTACT_FIELDS}}
    }
  `,
);

/** Asked separately: the field needs the contact's company, known only after reading it. */
export const canReInviteQuery = query(
  "CanReInvite",
  /* GraphQL */ `
    query CanReInvite($id: ID!, $account: ID!) {
      trustedContact(id: $id) {
        id
        viewerCanReInvite(account: $account)
      }
    }
  `,
);

export const createTrustedContactMutation = mutation(
  "CreateTrustedContact",
  /* GraphQL */ `
    mutation CreateTrustedContact($input: CreateTrustedContactInput!) {
      createTrustedContact(input: $input) {${CONTACT_FIELDS}}
    }
  `,
  // It emails a person; an email cannot be unsent. Never send it twice.
  "adds",
);

export const reinviteTrustedContactMutation = mutation(
  "ReinviteTrustedContact",
  /* GraphQL */ `
    mutation ReinviteTrustedContact($input: ReinviteTrustedContactInput!) {
      reinviteTrustedContact(input: $input) {${CONTACT_FIELDS}}
    }
  `,
  "adds",
);
