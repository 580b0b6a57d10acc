// Who is signed in and which accounts the token may act for: list_accounts.
import { query } from "../operations.js";

/** `__typename` is the account type: Company, Organisation, Recruiter (staffing agency), Worker, Partner. */
export interface AccountSummary {
  __typename: string;
  id: string;
  name: string;
  /** Companies and organisations only. */
  market?: string;
  /** Companies only: the company's preferred currency. */
  currency?: string;
}

export interface ListAccountsData {
  viewer: { id: string; name: string; email: string };
  accounts: AccountSummary[];
}

export const listAccountsQuery = query<ListAccountsData, Record<string, never>>(
  "ListAccounts",
  /* GraphQL */ `
    query ListAccounts {
      viewer {
        id
        name
        email
      }
      accounts {
        __typename
        id
        name
        ... on Company {
          market
          currency
        }
        ... on Organisation {
          market
        }
      }
    }
  `,
);

export const accountOperations = { listAccountsQuery };
