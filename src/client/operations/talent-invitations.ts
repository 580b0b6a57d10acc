// Inviting people into a company's talent pool, for invite_to_talent_pool: the look-ups before an
// invitation (is the email already in the pool? may we re-invite?), the two mutations, and the
// read-back of an invitation by the external identifier it was sent with.
import { mutation, query } from "../operations.js";

export interface InvitedContact {
  id: string;
  status: string;
  /** A date (YYYY-MM-DD): a re-invitation on a later day moves it. */
  invitedAt: string;
  /** Set by this server's invitations, to find the contact again after a lost answer. */
  externalIdentifier: string | null;
  company: { id: string; name: string };
  worker: { id: string; name: string; email: string | null };
  skills: { id: string; name: string }[];
}

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

export interface PoolContactsByEmailData {
  trustedContacts: { data: InvitedContact[] };
}

/** Contacts of one company whose name or email contains `email`; the tool keeps exact matches. */
export const poolContactsByEmailQuery = query<
  PoolContactsByEmailData,
  { company: string; email: string }
>(
  "PoolContactsByEmail",
  /* GraphQL */ `
    query PoolContactsByEmail($company: ID!, $email: String!) {
      trustedContacts(accounts: [$company], search: $email, first: 25) {
        data {${CONTACT_FIELDS}}
      }
    }
  `,
);

export interface PoolContactsByExternalIdData {
  trustedContacts: { data: InvitedContact[] };
}

/** The contact an invitation created, by the external identifier it was sent with. */
export const poolContactsByExternalIdQuery = query<
  PoolContactsByExternalIdData,
  { company: string; externalIdentifier: string }
>(
  "PoolContactsByExternalId",
  /* GraphQL */ `
    query PoolContactsByExternalId($company: ID!, $externalIdentifier: String!) {
      trustedContacts(accounts: [$company], externalIdentifiers: [$externalIdentifier], first: 5) {
        data {${CONTACT_FIELDS}}
      }
    }
  `,
);

export interface TrustedContactData {
  trustedContact: InvitedContact | null;
}

export const trustedContactQuery = query<TrustedContactData, { id: string }>(
  "TrustedContact",
  /* GraphQL */ `
    query TrustedContact($id: ID!) {
      trustedContact(id: $id) {${CONTACT_FIELDS}}
    }
  `,
);

export interface CanReInviteData {
  trustedContact: { id: string; viewerCanReInvite: boolean } | null;
}

/** Asked separately: the field needs the contact's company, known only after reading it. */
export const canReInviteQuery = query<CanReInviteData, { id: string; account: string }>(
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

export interface CreateTrustedContactVariables extends Record<string, unknown> {
  input: {
    company: string;
    firstName: string;
    lastName: string;
    email: string;
    country?: string;
    links: string[];
    attachments: string[];
    skills: string[];
    message?: string;
    notifyWorker: boolean;
    externalIdentifier: string;
    origin: "INVITED";
    originChannel: "DIRECT_INVITE";
  };
}

export const createTrustedContactMutation = mutation<
  { createTrustedContact: InvitedContact },
  CreateTrustedContactVariables
>(
  "CreateTrustedContact",
  /* GraphQL */ `
    mutation CreateTrustedContact($input: CreateTrustedContactInput!) {
      createTrustedContact(input: $input) {${CONTACT_FIELDS}}
    }
  `,
  // It emails a person; an email cannot be unsent. Never send it twice.
  false,
);

export const reinviteTrustedContactMutation = mutation<
  { reinviteTrustedContact: InvitedContact },
  { input: { id: string } }
>(
  "ReinviteTrustedContact",
  /* GraphQL */ `
    mutation ReinviteTrustedContact($input: ReinviteTrustedContactInput!) {
      reinviteTrustedContact(input: $input) {${CONTACT_FIELDS}}
    }
  `,
  false,
);

export const talentInvitationOperations = {
  poolContactsByEmailQuery,
  poolContactsByExternalIdQuery,
  trustedContactQuery,
  canReInviteQuery,
  createTrustedContactMutation,
  reinviteTrustedContactMutation,
};
